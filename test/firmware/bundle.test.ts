// The esbuild bundle the executables carry (firmware/bundle.mjs): ASCII only, so V8 holds its source as one byte per
// character (a single non-ASCII byte doubles it in the heap), and minified.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Node's built-in modules that loading the bundle loaded (it runs `--version`: every module's top level, no daemon). */
function builtinsLoadedBy(bundle: string, dir: string): string[] {
  const probe = join(dir, 'probe.cjs');
  writeFileSync(probe, `process.on('exit', () => process.stderr.write('\\n' + JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)))));`);
  const run = spawnSync(process.execPath, ['--require', probe, bundle, '--version'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stderr.trim().split('\n').pop()!) as string[];
}

test('the bundle is ASCII only and minified, and its start loads no module a first request does not need', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bundle-test-'));
  try {
    // imported, not required: the build script ends with a top-level await
    // @ts-expect-error: plain ESM build script without type declarations
    const { buildBundle } = (await import('../../firmware/bundle.mjs')) as { buildBundle: (dir: string) => Promise<string> };
    const file = await buildBundle(dir);
    const bytes = readFileSync(file);
    assert.equal(bytes.findIndex((b) => b > 0x7f), -1, 'a byte above 0x7f');
    // 3.6 MB before minification; what V8 keeps of the source and scans at each lazy compile
    assert.ok(statSync(file).size < 2.5e6, `bundle is ${statSync(file).size} bytes`);
    const builtins = builtinsLoadedBy(file, dir);
    assert.ok(builtins.includes('net'), `the probe sees built-ins: ${builtins.join(', ')}`);
    // the render pool's threads start at the first render; commands run only for a configured extension
    for (const lazy of ['worker_threads', 'child_process']) assert.ok(!builtins.includes(lazy), `${lazy} loaded at start`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
