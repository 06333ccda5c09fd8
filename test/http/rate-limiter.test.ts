// The failed-key limiter: over the limit in the window is refused; the table stays bounded whatever the addresses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_MAX_ADDRESSES, FailureLimiter } from '../../src/http/rate-limiter';

function limiter(maxAddresses?: number) {
  let clock = 1_000_000;
  const l = new FailureLimiter({ maxFailures: 20, windowMs: 60_000, maxAddresses, now: () => clock });
  return { l, advance: (ms: number) => (clock += ms) };
}

test('the 21st failure within 60 s blocks the address until its oldest failure leaves the window', () => {
  const { l, advance } = limiter();
  for (let i = 0; i < 21; i += 1) l.fail('10.0.0.1');
  assert.equal(l.retryAfter('10.0.0.1'), 60);
  assert.equal(l.retryAfter('10.0.0.2'), 0);
  advance(60_001);
  assert.equal(l.retryAfter('10.0.0.1'), 0);
});

test('failures from 30,000 addresses keep at most the bound; a recent offender is still blocked, the oldest forgotten', () => {
  const { l } = limiter();
  for (let i = 0; i < 30_000; i += 1) l.fail(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  for (let i = 0; i < 21; i += 1) l.fail('192.168.1.50');
  assert.ok(l.size <= DEFAULT_MAX_ADDRESSES, `${l.size} addresses kept`);
  assert.equal(l.size, DEFAULT_MAX_ADDRESSES);
  assert.ok(l.retryAfter('192.168.1.50') > 0);
  l.fail('10.0.0.0');
  assert.equal(l.retryAfter('10.0.0.0'), 0, 'the first address starts again from one failure');
});

test('one address never keeps more than the failures that matter', () => {
  const { l, advance } = limiter(4);
  for (let i = 0; i < 1000; i += 1) {
    l.fail('10.9.9.9');
    advance(1);
  }
  assert.equal(l.size, 1);
  assert.equal(l.retryAfter('10.9.9.9'), 60);
});

test('addresses whose failures left the window are dropped as new failures arrive', () => {
  const { l, advance } = limiter();
  l.fail('10.0.0.1');
  l.fail('10.0.0.2');
  advance(60_001);
  l.fail('10.0.0.3');
  assert.equal(l.size, 1);
  assert.equal(l.anyFailures(), true);
  advance(60_001);
  assert.equal(l.anyFailures(), false);
});
