// The native cache on a data partition that refuses writes: the natives go to a fresh private temporary folder instead.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_ASSET, type EmbeddedAssets } from '../../src/native/embedded-assets';
import { extractNativesOrTemp } from '../../src/native/native-cache';
import { tempDir } from '../helpers/temp-dir';

const native = randomBytes(3000);
const assets: EmbeddedAssets = {
  carrier: 'appended',
  get: (name) => {
    if (name === MANIFEST_ASSET) return Buffer.from(JSON.stringify({ hash: 'ab'.repeat(32), natives: { 'x.node': native.length } }));
    if (name === 'x.node') return native;
    throw new Error(`no asset ${name}`);
  },
};

/** Runs `body` with a 64 KiB tmpfs mounted (with `options`) on a new folder, unmounted afterwards. */
async function onTmpfs(options: string, body: (dir: string) => Promise<void>): Promise<void> {
  const dir = tempDir('native-cache-mount');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=64k,${options}`, 'tmpfs', dir]);
  try {
    await body(dir);
  } finally {
    execFileSync('umount', [dir]);
  }
}

function fill(file: string): void {
  const fd = openSync(file, 'a');
  try {
    for (;;) writeSync(fd, Buffer.alloc(4096));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

async function assertFellBack(root: string): Promise<void> {
  const tmp = tempDir('native-cache-tmp');
  const { dir, fellBack } = await extractNativesOrTemp(assets, root, tmp);
  assert.equal(fellBack, true);
  assert.ok(dir.startsWith(join(tmp, 'printproxyd-native-')), dir);
  assert.deepEqual(readFileSync(join(dir, 'x.node')), native);
  assert.equal(statSync(join(dir, '..')).mode & 0o777, 0o700, 'a private folder');
}

test('a writable partition holds the cache itself', async () => {
  const root = join(tempDir('native-cache-root'), 'native-cache');
  const { dir, fellBack } = await extractNativesOrTemp(assets, root, tempDir('native-cache-tmp'));
  assert.equal(fellBack, false);
  assert.ok(dir.startsWith(root));
  assert.deepEqual(readFileSync(join(dir, 'x.node')), native);
});

test('a full data partition: the natives are extracted to a private temporary folder', async () => {
  await onTmpfs('mode=0700', async (data) => {
    fill(join(data, 'filler'));
    await assertFellBack(join(data, 'native-cache'));
  });
});

test('a read-only data partition: the natives are extracted to a private temporary folder', async () => {
  await onTmpfs('ro', (data) => assertFellBack(join(data, 'native-cache')));
});
