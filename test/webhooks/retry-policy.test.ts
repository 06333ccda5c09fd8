// Retry delays: doubling from the base, capped, jittered within the upper half of the nominal delay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryDelay, type WebhookPolicy } from '../../src/webhooks/retry-policy';

const SPEC: WebhookPolicy = { retryBaseMs: 1000, retryCapMs: 3_600_000, retryHorizonMs: 86_400_000, timeoutMs: 10_000 };

test('1 s doubling to 1 h: with no jitter drawn each delay is half its nominal value, at the top of the range the whole', () => {
  const nominal = [1, 2, 3, 4, 12, 13, 40].map((attempt) => retryDelay(SPEC, attempt, () => 1));
  assert.deepEqual(nominal, [1000, 2000, 4000, 8000, 2_048_000, 3_600_000, 3_600_000]);
  assert.equal(retryDelay(SPEC, 3, () => 0), 2000);
  assert.equal(retryDelay(SPEC, 5000, () => 0), 1_800_000, 'a huge attempt count stays at the cap');
});

test('jitter spreads the delay between half and all of its nominal value', () => {
  for (const r of [0, 0.25, 0.5, 0.999]) {
    const delay = retryDelay(SPEC, 4, () => r);
    assert.ok(delay >= 4000 && delay <= 8000, `${delay}`);
  }
});
