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

test('a settled record reads back field for field, in the same place of the list, and a later printedAt is kept', () => {
  const now = 7_000_000;
  const store = new JobStore({ retentionMs: 3_600_000, maxRecords: 100, now: () => now });
  const first = { ...job(1, now), completedAt: new Date(now + 5).toISOString(), title: 'Order 17', source: 'https://erp.local/o/17.pdf', target: 'tag_dock' };
  const second = { ...job(2, now + 1), state: 'failed' as const, error: 'Canceled', errorCode: 'CANCELED' as const, completedAt: new Date(now + 9).toISOString(), cupsJobId: 'ipp-42' };
  const running = job(3, now + 2, 'printing');
  for (const j of [first, second, running]) store.add(j);
  const before = store.list().map((j) => ({ ...j }));
  store.settle(first);
  store.settle(second);
  store.settle(running);
  assert.deepEqual(store.list(), before);
  assert.notEqual(store.get(first.jobId), first, 'the settled record is rebuilt from columns, not the object');
  assert.equal(store.get(running.jobId), running, 'an unfinished job keeps its live object');
  first.printedAt = new Date(now + 700).toISOString();
  store.settle(first);
  assert.equal(store.get(first.jobId)?.printedAt, first.printedAt);
  assert.deepEqual(store.byKey('none'), undefined);
  store.remember('k', [second.jobId, first.jobId]);
  assert.deepEqual(store.byKey('k'), [{ ...second }, { ...first }]);
});

test('settled records still expire, count against the cap, and are not unfinished', () => {
  let now = 9_000_000;
  const store = new JobStore({ retentionMs: 60_000, maxRecords: 2, now: () => now });
  store.add(job(1, now, 'queued'));
  for (const id of [2, 3, 4]) {
    store.add(job(id, now));
    store.settle(job(id, now));
  }
  assert.deepEqual(store.list().map((j) => Number(j.cupsJobId)), [4, 1]);
  assert.equal(store.unfinished(), 1);
  now += 60_000;
  assert.equal(store.get(job(4, 0).jobId), undefined);
  store.add(job(5, now));
  store.settle(job(5, now));
  assert.deepEqual(store.list().map((j) => Number(j.cupsJobId)), [5, 1]);
});

test('a record whose times are not its own ISO strings is kept as an object, exactly as given', () => {
  const now = 11_000_000;
  const store = new JobStore({ retentionMs: 3_600_000, maxRecords: 100, now: () => now });
  const odd = { ...job(1, now), createdAt: '2026-11-26T06:00:00Z' };
  store.add(odd);
  store.settle(odd);
  assert.equal(store.get(odd.jobId), odd);
});

test('unfinished counts the records queued or printing: a record that ended counts no more, settled or not', () => {
  const now = 5_000_000;
  const store = new JobStore({ retentionMs: 3_600_000, maxRecords: 100, now: () => now });
  const jobs = [job(1, now, 'queued'), job(2, now, 'printing'), job(3, now, 'queued'), job(4, now)];
  for (const j of jobs) store.add(j);
  assert.equal(store.unfinished(), 3);
  jobs[0].state = 'completed';
  assert.equal(store.unfinished(), 2, 'ended on the object, not settled yet');
  jobs[1].state = 'failed';
  store.settle(jobs[1]);
  assert.equal(store.unfinished(), 1, 'ended and packed');
  store.add(job(5, now, 'queued'));
  assert.equal(store.unfinished(), 2);
});
