// A raw-port job refused as busy (queue or spool full) is offered again until taken; other errors end it at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../src/errors';
import { submitWhenRoom } from '../../src/sharing/submit-when-room';

test('busy refusals are tried again until the spooler takes the job', async () => {
  let calls = 0;
  await submitWhenRoom(async () => {
    calls += 1;
    if (calls === 1) throw new AppError('QUEUE_FULL', 'full');
    if (calls === 2) throw new AppError('SPOOL_FULL', 'full');
  }, 60_000);
  assert.equal(calls, 3);
});

test('another error, or the wait ended, rejects with that error', async () => {
  let calls = 0;
  await assert.rejects(submitWhenRoom(async () => {
    calls += 1;
    throw new AppError('INVALID_REQUEST', 'bad');
  }, 60_000), /bad/);
  assert.equal(calls, 1);
  await assert.rejects(submitWhenRoom(async () => {
    throw new AppError('QUEUE_FULL', 'still full');
  }, 0), /still full/);
  const closing = new AbortController();
  closing.abort();
  await assert.rejects(submitWhenRoom(async () => {
    throw new AppError('QUEUE_FULL', 'closing');
  }, 60_000, closing.signal), /closing/);
});
