// The sharePath rule: only absolute folders strictly below the share root, without . or .., away from the data dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../src/errors';
import { checkSharePath } from '../../src/spooler/share-path';
import { tempDir } from '../helpers/temp-dir';

const base = tempDir('share-path');
const shareRoot = join(base, 'shares');
mkdirSync(shareRoot);
const policy = { shareRoot, dataDir: join(shareRoot, 'data') };

function refusal(path: string): string {
  try {
    checkSharePath(path, policy);
  } catch (err) {
    assert.ok(err instanceof AppError && err.code === 'INVALID_REQUEST', String(err));
    return err.message;
  }
  return 'accepted';
}

test('a folder below the share root is accepted, mounted or not', () => {
  assert.equal(refusal(join(shareRoot, 'nas')), 'accepted');
  assert.equal(refusal(join(shareRoot, 'nas', 'labels/')), 'accepted');
});

test('paths outside the share root, the root itself, relative paths and . or .. segments are refused naming sharePath', () => {
  for (const path of ['/', '/dev', '/etc/passwd', shareRoot, `${shareRoot}/`, `${shareRoot}-other/x`, 'nas', '', `${shareRoot}/../x`, `${shareRoot}/nas/..`, `${shareRoot}/./nas`, `${shareRoot}/a\0b`]) {
    assert.match(refusal(path), /^sharePath /, JSON.stringify(path));
  }
});

test('a share holding or inside the data dir is refused', () => {
  assert.equal(refusal(join(shareRoot, 'data')), 'sharePath must not overlap the data dir');
  assert.equal(refusal(join(shareRoot, 'data', 'files')), 'sharePath must not overlap the data dir');
});

test('a symlink below the share root that leads outside it is refused', () => {
  symlinkSync('/', join(shareRoot, 'escape'));
  assert.match(refusal(join(shareRoot, 'escape')), /below the share root/);
});
