// The real daemon with its data dir on a small tmpfs of its own: mounted in a private mount namespace, gone with the process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startDaemon, tempDataDir, type DaemonHandle, type StartOptions } from '../helpers/daemon-process';

const ROOT = resolve(__dirname, '..', '..');
const FILLER = 'filler.bin';

/** A daemon whose data dir is a tmpfs of `sizeKb`; `path` reaches files inside it from the test process. */
export interface TmpfsDaemon {
  d: DaemonHandle;
  /** The host path of `relative` inside the daemon's data dir (through /proc/<pid>/root, the daemon's mount namespace). */
  path: (relative?: string) => string;
  /** Writes a filler file until the tmpfs answers ENOSPC. */
  fill: () => void;
  /** Removes the filler file. */
  free: () => void;
}

/** Fails loudly, with the reason, when this process cannot mount a tmpfs in a private mount namespace. */
export function requireTmpfs(): void {
  const probe = tempDataDir();
  const run = spawnSync('unshare', ['-m', '--propagation', 'private', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs "$0"', probe], { encoding: 'utf8' });
  if (run.error || run.status !== 0) {
    assert.fail(
      `fault tests need a tmpfs mounted in a private mount namespace (root with CAP_SYS_ADMIN, unshare and mount installed); ` +
        `'unshare -m mount -t tmpfs' failed: ${run.error?.message ?? `exit ${run.status}: ${run.stderr.trim()}`}`,
    );
  }
}

/** How the tmpfs looks when the daemon starts. */
export interface TmpfsStart {
  /** A folder whose content is copied onto the tmpfs first (a data dir of an earlier run). */
  seed?: string;
  /** Fill the tmpfs (the filler file) before the daemon starts. */
  full?: boolean;
  /** Remount the tmpfs read-only before the daemon starts. */
  readOnly?: boolean;
}

/** Starts src/main.ts under `unshare -m` with a fresh tmpfs of `sizeKb` mounted on its data dir. */
export async function startOnTmpfs(sizeKb: number, options: StartOptions = {}, start: TmpfsStart = {}): Promise<TmpfsDaemon> {
  requireTmpfs();
  const dataDir = tempDataDir();
  const seed = start.seed ? `cp -a "${start.seed}/." "$0" && ` : '';
  const full = start.full ? `{ dd if=/dev/zero of="$0/${FILLER}" bs=4k 2>/dev/null || true; } && ` : '';
  const readOnly = start.readOnly ? `mount -o remount,ro "$0" && ` : '';
  const mountThenRun = `mount -t tmpfs -o size=${sizeKb}k,mode=0700 tmpfs "$0" && ${seed}${full}${readOnly}exec "$@"`;
  const command = ['unshare', '-m', '--propagation', 'private', 'sh', '-c', mountThenRun, dataDir, process.execPath, '--import', 'tsx', join(ROOT, 'src', 'main.ts')];
  const d = await startDaemon({ ...options, dataDir, command });
  const path = (relative = '') => join(`/proc/${d.proc.pid}/root`, dataDir, relative);
  assert.ok(statSync(path()).dev !== statSync(dataDir).dev, 'the daemon sees its own tmpfs on the data dir');
  return { d, path, fill: () => fill(path(FILLER)), free: () => rmSync(path(FILLER), { force: true }) };
}

/** Every file below `dir`, relative, sorted (the filler left out). */
export function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .filter((name) => name !== FILLER)
    .sort();
}

function fill(file: string): void {
  const fd = openSync(file, 'a');
  const chunk = Buffer.alloc(4096, 0x55);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}
