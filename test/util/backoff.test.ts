// The one backoff: ceilings double from the base up to the cap; full jitter spreads below the ceiling, upper-half in its top half.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffDelay } from '../../src/util/backoff';

test('ceilings double from the base to the cap, and a huge attempt count stays at the cap', () => {
  const policy = { baseMs: 1000, capMs: 8000, jitter: 'upper-half' as const };
  assert.deepEqual([0, 1, 2, 3, 4, 5000].map((attempt) => backoffDelay(policy, attempt, () => 1)), [1000, 2000, 4000, 8000, 8000, 8000]);
});

test('full jitter reaches down to 0 and stays below the ceiling; upper-half stays in the top half', () => {
  const full = { baseMs: 1000, capMs: 60_000, jitter: 'full' as const };
  assert.equal(backoffDelay(full, 2, () => 0), 0);
  assert.equal(backoffDelay(full, 2, () => 0.999999), 3999);
  const upper = { baseMs: 1000, capMs: 60_000, jitter: 'upper-half' as const };
  assert.equal(backoffDelay(upper, 2, () => 0), 2000);
  assert.equal(backoffDelay(upper, 2, () => 0.5), 3000);
});
