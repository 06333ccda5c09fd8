// The API key check: only the exact key passes (not a prefix, an extension, another length, a key past the compared
// block, nor one differing in a multi-byte character), each refusal counts a failure, and a changed key takes effect.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiAuth } from '../../src/http/auth';
import { FailureLimiter } from '../../src/http/rate-limiter';

const KEY = 'k3y-0123456789abcdef!~';

/** Whether `presented` passes against `key`, and how many failures the limiter then holds for the address. */
function check(key: string, presented: string): { passed: boolean; failures: boolean } {
  const limiter = new FailureLimiter({ maxFailures: 100, windowMs: 60_000 });
  const auth = new ApiAuth(() => key, limiter);
  let passed = true;
  try {
    auth.check(presented, () => '192.0.2.7');
  } catch (err) {
    assert.equal((err as { code?: string }).code, 'UNAUTHORIZED');
    passed = false;
  }
  return { passed, failures: limiter.anyFailures() };
}

test('the exact key passes and counts no failure', () => {
  assert.deepEqual(check(KEY, KEY), { passed: true, failures: false });
});

test('a prefix, an extension, a one-character change, a padded or empty key are refused and counted', () => {
  for (const presented of [KEY.slice(0, -1), `${KEY}x`, `${KEY.slice(0, -1)}!`, `${KEY}\0`, `\0${KEY}`, ` ${KEY}`, 'x'.repeat(KEY.length)]) {
    assert.deepEqual(check(KEY, presented), { passed: false, failures: true }, JSON.stringify(presented));
  }
});

test('keys longer than the compared block never match, even against each other', () => {
  const long = 'a'.repeat(600);
  assert.equal(check(long, long).passed, false);
  assert.equal(check(KEY, long).passed, false);
  assert.equal(check('b'.repeat(256), 'b'.repeat(256)).passed, true, 'the longest key the settings take passes');
});

test('multi-byte characters are compared as bytes: a near miss is refused', () => {
  assert.equal(check('é'.repeat(20), 'é'.repeat(20)).passed, true);
  assert.equal(check('é'.repeat(20), 'e'.repeat(40)).passed, false);
  assert.equal(check('é'.repeat(20), `${'é'.repeat(19)}è`).passed, false);
});

test('a changed key takes effect at the next check', () => {
  let key = KEY;
  const auth = new ApiAuth(() => key, new FailureLimiter({ maxFailures: 100, windowMs: 60_000 }));
  auth.check(KEY, () => '192.0.2.7');
  key = `${KEY}-rotated`;
  assert.throws(() => auth.check(KEY, () => '192.0.2.7'), { code: 'UNAUTHORIZED' });
  auth.check(key, () => '192.0.2.7');
});
