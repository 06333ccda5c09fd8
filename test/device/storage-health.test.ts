// The storage health: warnings from the partition's state and refused writes, retries once there is room.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { silentLogger } from '../../src/log';
import { StorageHealth, type StorageProbe } from '../../src/device/storage-health';

function health(state: StorageProbe): StorageHealth {
  return new StorageHealth({ probe: () => Promise.resolve({ ...state }), minFreeBytes: 16 * 1024, logger: silentLogger });
}

const enospc = Object.assign(new Error('no space'), { code: 'ENOSPC' });

test('room and nothing refused: no warning; below the free floor: storage is full; mounted read-only: storage is read-only', async () => {
  const state = { freeBytes: 1 << 20, writable: true };
  const h = health(state);
  assert.deepEqual(await h.check(), []);
  state.freeBytes = 4096;
  assert.match((await h.check())[0], /^storage is full \(4096 bytes free\)/);
  state.writable = false;
  state.freeBytes = 1 << 20;
  assert.match((await h.check())[0], /^storage is read-only/);
});

test('a store that waits is retried only once there is room, and its warning goes when it succeeds', async () => {
  const state = { freeBytes: 0, writable: true };
  const h = health(state);
  let calls = 0;
  let refuse = true;
  h.retryLater('settings', enospc, async () => {
    calls += 1;
    if (refuse) throw enospc;
  });
  assert.match((await h.check())[0], /not saved yet: settings \(ENOSPC\)/);
  assert.equal(calls, 0, 'no retry while full');
  state.freeBytes = 1 << 20;
  assert.match((await h.check())[0], /^storage refuses writes.*settings \(ENOSPC\)/, 'refused again: still waiting');
  assert.equal(calls, 1);
  refuse = false;
  assert.deepEqual(await h.check(), []);
  assert.equal(calls, 2);
  assert.deepEqual(await h.check(), []);
  assert.equal(calls, 2, 'stored: not retried again');
});

test('a refusal looked up through cause (a CHANGE_NOT_STORED wrapping ENOSPC) names the errno', async () => {
  const h = health({ freeBytes: 1 << 20, writable: true });
  h.failed('TLS certificate', new Error('wrapped', { cause: enospc }));
  assert.match(h.warnings()[0], /TLS certificate \(ENOSPC\)/);
  h.stored('TLS certificate');
  assert.deepEqual(h.warnings(), []);
});
