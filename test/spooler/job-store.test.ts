// Job retention, the record cap and idempotency-key lifetime.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JobRecord } from '../../src/schemas/job';
import { JobStore } from '../../src/spooler/job-store';

function job(id: number, at: number, state: JobRecord['state'] = 'completed'): JobRecord {
  return { jobId: `pj_${String(id).padStart(12, '0')}`, printer: 'p', target: 'p', title: 't', source: null, state, error: null, errorCode: null, createdAt: new Date(at).toISOString(), completedAt: null, contentType: 'zpl', size: 1, cupsJobId: String(id), printedAt: null };
}

test('records expire after the retention period', () => {
  let now = 1_000_000;
  const store = new JobStore({ retentionMs: 3_600_000, maxRecords: 100, now: () => now });
  store.add(job(1, now));
  now += 3_599_999;
  assert.ok(store.get(job(1, 0).jobId));
  now += 1;
  assert.equal(store.get(job(1, 0).jobId), undefined);
});

test('past the cap the oldest finished records go first; active ones stay', () => {
  const now = 5_000_000;
  const store = new JobStore({ retentionMs: 3_600_000, maxRecords: 3, now: () => now });
  store.add(job(1, now, 'queued'));
  store.add(job(2, now));
  store.add(job(3, now));
  store.add(job(4, now));
  store.add(job(5, now));
  assert.deepEqual(store.list().map((j) => Number(j.cupsJobId)), [5, 4, 1]);
});

test('an idempotency key lives one hour', () => {
  let now = 0;
  const store = new JobStore({ retentionMs: 3_600_000, maxRecords: 100, now: () => now });
  store.add(job(1, now));
  store.remember('k', [job(1, 0).jobId]);
  now = 3_599_000;
  assert.equal(store.byKey('k')?.[0].jobId, job(1, 0).jobId);
  now = 3_600_000;
  assert.equal(store.byKey('k'), undefined);
});
