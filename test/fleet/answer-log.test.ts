// The fleet's de-duplication journal: entries survive a reopen, answered ones expire after the retention, the count is bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnswerLog } from '../../src/fleet/answer-log';
import { silentLogger } from '../../src/log';
import { tempDir } from '../helpers/temp-dir';

const reply = { id: 'r1', topic: 'p/d/res', correlation: null };

test('accepted and answered entries survive a reopen; answered replaces accepted', async () => {
  const dir = tempDir('fleet-answers');
  let now = 1000;
  const bounds = { retentionMs: () => 60_000, maxEntries: 100 };
  const log = await AnswerLog.open(dir, bounds, () => now, silentLogger);
  await log.put({ state: 'accepted', key: 'k1', at: now, module: '/print/x', jobIds: ['pj_1'], reply });
  await log.put({ state: 'accepted', key: 'k2', at: now, module: '/print/x', jobIds: ['pj_2'], reply });
  await log.put({ state: 'answered', key: 'k2', at: now, status: 200, body: { ok: true } });
  const again = await AnswerLog.open(dir, bounds, () => now, silentLogger);
  assert.deepEqual(again.accepted().map((e) => e.key), ['k1']);
  assert.deepEqual(again.get('k2'), { state: 'answered', key: 'k2', at: 1000, status: 200, body: { ok: true } });
  now += 60_000;
  assert.equal(again.get('k2'), undefined, 'expired after the retention');
  assert.equal(again.get('k1')?.state, 'accepted', 'an accepted key waits for its jobs, whatever its age');
});

test('at most maxEntries answered keys are kept, the oldest go first', async () => {
  const log = await AnswerLog.open(tempDir('fleet-answers'), { retentionMs: () => 3_600_000, maxEntries: 3 }, () => 0, silentLogger);
  for (let i = 1; i <= 5; i += 1) await log.put({ state: 'answered', key: `k${i}`, at: 0, status: 201, body: null });
  assert.equal(log.get('k1'), undefined);
  assert.equal(log.get('k2'), undefined);
  assert.equal(log.get('k5')?.state, 'answered');
});
