// The live status cache: budget, reuse window, one probe at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LiveStatus } from '../../src/schemas/printer';
import { StatusCache } from '../../src/printers/status-cache';

const ONLINE: LiveStatus = { status: 'online', statusReasons: [] };

test('a fresh result is reused within the ttl and probed again after it', async () => {
  let now = 0;
  let probes = 0;
  const cache = new StatusCache({ probe: async () => (probes++, ONLINE), budgetMs: 100, ttlMs: 2000, now: () => now });
  assert.deepEqual(await cache.get('p'), ONLINE);
  now = 1999;
  assert.deepEqual(cache.fresh('p'), ONLINE);
  await cache.get('p');
  assert.equal(probes, 1);
  now = 2000;
  assert.equal(cache.fresh('p'), undefined);
  await cache.get('p');
  assert.equal(probes, 2);
});

test('a probe slower than the budget answers unknown, and its result is cached when it lands', async () => {
  let release!: (s: LiveStatus) => void;
  let probes = 0;
  const cache = new StatusCache({ probe: () => (probes++, new Promise((r) => (release = r))), budgetMs: 20, ttlMs: 2000 });
  const [a, b] = await Promise.all([cache.get('p'), cache.get('p')]);
  assert.deepEqual(a, { status: 'unknown', statusReasons: [] });
  assert.deepEqual(b, a);
  assert.equal(probes, 1, 'concurrent requests share one probe');
  release({ status: 'error', statusReasons: ['media-empty-error'] });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(cache.fresh('p'), { status: 'error', statusReasons: ['media-empty-error'] });
});

test('a probe that throws reads as offline', async () => {
  const cache = new StatusCache({ probe: async () => Promise.reject(new Error('refused')), budgetMs: 100, ttlMs: 10 });
  assert.deepEqual(await cache.get('p'), { status: 'offline', statusReasons: [] });
});
