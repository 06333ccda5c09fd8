// Local file content: share roots only as real mounts under the share root, never the data dir outside files/,
// only regular files, read within the body limit.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeviceError } from '../../src/errors';
import { allowedLocalPath, readLocalFile } from '../../src/spooler/local-files';
import { allowedRoots } from '../../src/spooler/share-roots';
import { tempDir } from '../helpers/temp-dir';

const base = tempDir('local-files');
const dataDir = join(base, 'data');
const shareRoot = join(base, 'shares');
const mounted = join(shareRoot, 'labels');
const plainDir = join(shareRoot, 'not-a-mount');
for (const dir of [join(dataDir, 'files'), mounted, plainDir]) mkdirSync(dir, { recursive: true });
execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mounted]);
after(() => execFileSync('umount', [mounted]));
writeFileSync(join(mounted, 'label.zpl'), '^XA^FDshare^FS^XZ');
writeFileSync(join(dataDir, 'settings.json'), '{"apiKey":"secret"}');
writeFileSync(join(dataDir, 'files', 'label.zpl'), '^XA^FDfiles^FS^XZ');

const roots = (sharePaths: string[]) => allowedRoots({ dataDir, shareRoot, sharePaths });

test('a share counts only when it is a real mount under the share root; never / or a plain folder', () => {
  assert.deepEqual(roots([mounted, '/', plainDir, shareRoot, '/proc', '/dev', join(base, 'nowhere')]), [join(dataDir, 'files'), mounted]);
  assert.deepEqual(allowedRoots({ dataDir, shareRoot: join(base, 'missing'), sharePaths: [mounted] }), [join(dataDir, 'files')]);
});

test('with / configured as a share, settings.json, /proc/self/environ and /etc/passwd stay out of reach', () => {
  const allowed = roots(['/', mounted]);
  for (const path of [join(dataDir, 'settings.json'), '/proc/self/environ', '/etc/passwd']) {
    assert.throws(() => allowedLocalPath(path, allowed), /^Error: Local path not allowed|Local path not allowed/, path);
  }
  assert.equal(allowedLocalPath(join(mounted, 'label.zpl'), allowed), join(mounted, 'label.zpl'));
  assert.equal(allowedLocalPath(join(dataDir, 'files', 'label.zpl'), allowed), join(dataDir, 'files', 'label.zpl'));
});

test('a share mount that holds the data dir is not a root: the data dir is readable only through files/', () => {
  const inner = join(mounted, 'device-data');
  mkdirSync(join(inner, 'files'), { recursive: true });
  writeFileSync(join(inner, 'settings.json'), '{}');
  assert.deepEqual(allowedRoots({ dataDir: inner, shareRoot, sharePaths: [mounted] }), [join(inner, 'files')]);
});

test('devices and FIFOs are refused as not regular files, without blocking', () => {
  assert.throws(() => allowedLocalPath('/dev/zero', ['/dev']), /\/dev\/zero is not a regular file/);
  const fifo = join(mounted, 'pipe');
  execFileSync('mkfifo', [fifo]);
  assert.throws(() => allowedLocalPath(fifo, [mounted]), /is not a regular file/);
});

test('a FIFO or device swapped in after the check is refused at read time, without blocking', async () => {
  await assert.rejects(readLocalFile(join(mounted, 'pipe'), 1024), (err: unknown) => err instanceof DeviceError && /not a regular file/.test(err.message));
  await assert.rejects(readLocalFile('/dev/zero', 1024), /not a regular file/);
});

test('a file larger than the body limit is refused naming the limit; files that report size 0 (/proc) are read within it', async () => {
  writeFileSync(join(mounted, 'big.bin'), Buffer.alloc(64 * 1024, 1));
  await assert.rejects(readLocalFile(join(mounted, 'big.bin'), 1000), /larger than the body limit of 1000 bytes/);
  assert.equal((await readLocalFile(join(mounted, 'big.bin'), 64 * 1024)).length, 64 * 1024);
  await assert.rejects(readLocalFile('/proc/self/maps', 16), /larger than the body limit of 16 bytes/);
});
