// The spooler's key journal: keys and their jobs' final records survive a reopen, a forgotten key stays forgotten, a key
// past its lifetime is gone (an injected clock), and the spooler replays a key after a restart only within that lifetime.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '../../src/log';
import type { PreparedDocument, PrinterDriver } from '../../src/kinds/printer-driver';
import type { JobRecord } from '../../src/schemas/job';
import type { PrinterRecord } from '../../src/schemas/printer';
import { KeyJournal } from '../../src/spooler/key-journal';
import type { Submission } from '../../src/spooler/submission';
import { spoolerHarness } from '../helpers/spooler-harness';
import { tempDir } from '../helpers/temp-dir';

const HOUR = 3_600_000;

const job = (jobId: string, state: JobRecord['state'] = 'queued'): JobRecord => ({
  jobId, printer: 'p', target: 'p', title: 'T', source: null, state, error: null, errorCode: null, createdAt: new Date(0).toISOString(),
  completedAt: state === 'completed' ? new Date(1).toISOString() : null, contentType: 'zpl', size: 3, cupsJobId: '1', printedAt: null,
});

function opener(file: string, clock: { now: number }, maxKeys = 100): () => Promise<KeyJournal> {
  return () => KeyJournal.open(file, { lifetimeMs: HOUR, maxKeys, now: () => clock.now }, silentLogger);
}

test('a key, its jobs as created and their final records survive a reopen; a forgotten key does not', async () => {
  const clock = { now: 1000 };
  const open = opener(join(tempDir('keys'), 'keys.log'), clock);
  const keys = await open();
  await keys.created('k1', [job('pj_1'), job('pj_2')]);
  await keys.ended('k1', job('pj_2', 'completed'));
  await keys.created('k2', [job('pj_3')]);
  await keys.forget('k2');
  await keys.close();
  const again = await open();
  assert.deepEqual(again.restored(), [{ key: 'k1', at: 1000, jobs: [job('pj_1'), job('pj_2', 'completed')] }]);
  assert.deepEqual(again.restored(), [], 'handed over once');
  await again.close();
});

test('a key past its lifetime is gone at the next open', async () => {
  const clock = { now: 0 };
  const open = opener(join(tempDir('keys'), 'keys.log'), clock);
  const keys = await open();
  await keys.created('old', [job('pj_1')]);
  clock.now = HOUR / 2;
  await keys.created('young', [job('pj_2')]);
  await keys.close();
  clock.now = HOUR;
  const again = await open();
  assert.deepEqual(again.restored().map((e) => e.key), ['young']);
  await again.close();
});

test('the journal stays bounded as keys come and go, and keeps the live ones', async () => {
  const clock = { now: 0 };
  const file = join(tempDir('keys'), 'keys.log');
  const open = opener(file, clock, 50);
  const keys = await open();
  // 100 keys at a time (group-committed), each created then ended
  for (let from = 0; from < 3000; from += 100) {
    clock.now += 1000;
    const batch = Array.from({ length: 100 }, (_, i) => from + i);
    await Promise.all(batch.map((i) => keys.created(`key-${i}`, [job(`pj_${i}`)])));
    await Promise.all(batch.map((i) => keys.ended(`key-${i}`, job(`pj_${i}`, 'completed'))));
  }
  await keys.close();
  assert.ok(statSync(file).size < 600 * 1024, `journal is ${statSync(file).size} bytes`);
  const again = await open();
  const restored = again.restored();
  assert.equal(restored.length, 50);
  assert.deepEqual(restored.at(-1), { key: 'key-2999', at: clock.now, jobs: [job('pj_2999', 'completed')] });
  await again.close();
});

class CountingDriver implements PrinterDriver {
  delivered = 0;
  async preflight() {
    return { kind: 'ready' as const };
  }
  async deliver(doc: PreparedDocument) {
    this.delivered += 1;
    return { bytes: doc.bytes.length };
  }
  async status() {
    return { status: 'online' as const, statusReasons: [] };
  }
}

const printer: PrinterRecord = { path: 'a', id: 'A', tags: [], discovered: false, content: 'zpl', connection: { type: 'network', host: 'h', port: 9100, protocol: 'tcp' } };
const keyed = (key: string): Submission => ({ document: { source: { kind: 'inline' }, format: 'zpl', contentType: 'zpl' }, data: Buffer.from('^XA^XZ'), title: 'T', source: null, wait: true, options: {}, idempotencyKey: key });

test('after a restart the spooler replays a key within its lifetime, and prints again once it is past', async () => {
  const spoolDir = tempDir('keys-spool');
  const driver = new CountingDriver();
  const clock = { now: Date.now() };
  const harness = () => spoolerHarness({ spoolDir, findPrinter: () => printer, openDriver: () => driver, now: () => clock.now });
  const first = await harness();
  const printed = await first.spooler.submit(keyed('once'), [printer], 'a');
  assert.equal(printed.jobs[0].state, 'completed');
  await first.spooler.close(100);
  clock.now += HOUR - 60_000;
  const second = await harness();
  second.spooler.recover();
  const replay = await second.spooler.submit(keyed('once'), [printer], 'a');
  assert.equal(replay.replay, true);
  assert.equal(replay.jobs[0].jobId, printed.jobs[0].jobId);
  assert.equal(replay.jobs[0].state, 'completed');
  assert.equal(driver.delivered, 1);
  clock.now += 60_000;
  const third = await harness();
  third.spooler.recover();
  const fresh = await third.spooler.submit(keyed('once'), [printer], 'a');
  assert.equal(fresh.replay, false);
  assert.notEqual(fresh.jobs[0].jobId, printed.jobs[0].jobId);
  assert.equal(driver.delivered, 2);
});
