// Two builds of the render pipeline in one bench process: this tree's src/ and the src/ of a git revision, side by side.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { silentLogger } from '../src/log';
import type { RenderJob, RenderOutput } from '../src/render/render-job';

const ROOT = resolve(__dirname, '..');

/** One build's render pool of `size` workers, started from that build's own sources (pool, worker and pdfium). */
export interface RenderBuild {
  name: string;
  render(job: RenderJob): Promise<RenderOutput>;
  close(): Promise<void>;
}

type PoolModule = typeof import('../src/render/render-pool');
type AssetsModule = typeof import('../src/render/render-assets');

function poolOf(name: string, root: string, size: number): RenderBuild {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { RenderPool } = require(join(root, 'src/render/render-pool.ts')) as PoolModule;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { readPdfiumWasm } = require(join(root, 'src/render/render-assets.ts')) as AssetsModule;
  const worker = { kind: 'file' as const, path: join(root, 'src/render/render-worker.ts') };
  const pool = new RenderPool({ size, maxQueue: 64, jobTimeoutMs: 30_000, wasm: readPdfiumWasm(), worker, logger: silentLogger });
  return { name, render: (job) => pool.render(job), close: () => pool.close() };
}

/**
 * This tree's pool and the pool of `baseRev` (its src/ exported with git archive into .cache/, beside this tree's
 * node_modules), each of `size` workers. Returns them and a cleanup that closes both and removes the export.
 */
export function twoBuilds(baseRev: string, size: number): { builds: RenderBuild[]; baseCommit: string; cleanup(): Promise<void> } {
  const baseCommit = execFileSync('git', ['rev-parse', '--short', baseRev], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = join(ROOT, '.cache', `render-base-${baseCommit}`);
  if (!existsSync(join(dir, 'src'))) {
    mkdirSync(dir, { recursive: true });
    execFileSync('sh', ['-c', `git archive ${baseCommit} src | tar -x -C ${JSON.stringify(dir)}`], { cwd: ROOT });
  }
  if (!existsSync(join(dir, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const builds = [poolOf(`base ${baseCommit}`, dir, size), poolOf('this tree', ROOT, size)];
  return {
    builds,
    baseCommit,
    cleanup: async () => {
      await Promise.all(builds.map((b) => b.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
