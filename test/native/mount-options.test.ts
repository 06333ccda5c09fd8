// mountinfo parsing: the mount holding a folder is the longest mount point above it, escapes decoded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { isNoexecFolder, mountOf, parseMountInfo } from '../../src/native/mount-options';
import { tempDir } from '../helpers/temp-dir';

const MOUNTINFO = [
  '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw',
  '30 22 0:26 / /data rw,nosuid,nodev,noexec,relatime shared:2 - ext4 /dev/vdb rw',
  '31 30 0:27 / /data/native rw,relatime shared:3 - tmpfs tmpfs rw',
  '32 22 0:28 / /media/usb\\040stick ro,noexec - vfat /dev/sda1 ro',
  '',
].join('\n');

test('the longest mount point above a path holds it, and its per-mount options are read', () => {
  const entries = parseMountInfo(MOUNTINFO);
  assert.equal(entries.length, 4);
  assert.deepEqual(mountOf(entries, '/data/printproxyd/native-cache'), { mountPoint: '/data', options: ['rw', 'nosuid', 'nodev', 'noexec', 'relatime'] });
  assert.equal(mountOf(entries, '/data/native/abc')?.mountPoint, '/data/native');
  assert.equal(mountOf(entries, '/data')?.mountPoint, '/data');
  assert.equal(mountOf(entries, '/database')?.mountPoint, '/');
  assert.equal(mountOf(entries, '/media/usb stick/x')?.options.includes('noexec'), true);
});

test('a later mount on the same point hides the earlier one', () => {
  const entries = parseMountInfo(`${MOUNTINFO}40 22 0:40 / /data rw,relatime - tmpfs tmpfs rw\n`);
  assert.deepEqual(mountOf(entries, '/data/x')?.options, ['rw', 'relatime']);
});

test('an ordinary temporary folder here is not noexec', () => {
  const dir = join(tempDir('printproxyd-mount'), 'cache');
  mkdirSync(dir);
  assert.equal(isNoexecFolder(dir), false);
});
