// Reconnect delays: attempt n waits random(0, min(60 s, 1 s x 2^n)); a connection that lasted 60 s starts the count again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Backoff } from '../../src/fleet/backoff';

test('the ceiling doubles per attempt up to 60 s, and the wait is the random fraction of it', () => {
  const top = new Backoff(() => 0.999999);
  const ceilings = Array.from({ length: 9 }, () => top.nextDelayMs());
  assert.deepEqual(ceilings, [999, 1999, 3999, 7999, 15999, 31999, 59999, 59999, 59999]);
  const zero = new Backoff(() => 0);
  assert.equal(zero.nextDelayMs(), 0, 'full jitter reaches down to 0');
  const half = new Backoff(() => 0.5);
  assert.deepEqual([half.nextDelayMs(), half.nextDelayMs(), half.nextDelayMs()], [500, 1000, 2000]);
});

test('a connection that lasted 60 s starts the count again; a shorter one does not', () => {
  const b = new Backoff(() => 0.5);
  b.nextDelayMs();
  b.nextDelayMs();
  b.connectionEnded(59_999);
  assert.equal(b.nextDelayMs(), 2000);
  b.connectionEnded(60_000);
  assert.equal(b.nextDelayMs(), 500);
});
