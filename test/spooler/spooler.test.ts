// Unit tests of the spooler with an in-memory driver: ordering, idempotency, hold, cancel, spool recovery.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../helpers/temp-dir';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, DeviceError } from '../../src/errors';
import type { DeliveryResult, PreflightOutcome, PreparedDocument, PrinterDriver, Readiness } from '../../src/kinds/printer-driver';
import type { PrinterRecord } from '../../src/schemas/printer';
import type { Submission } from '../../src/spooler/submission';
import { until } from '../helpers/until';
import { spoolerHarness } from '../helpers/spooler-harness';

const PAUSED: Readiness = { ready: false, paperOut: false, paused: true, headOpen: false, ribbonOut: false, errors: ['Printer is paused'] };

class MemoryDriver implements PrinterDriver {
  delivered: string[] = [];
  notReady: Readiness | null = null;
  failNext: DeviceError | null = null;
  gate: Promise<void> | null = null;
  /** What deliver reports beyond the byte count (a printer that holds the job, with or without its id). */
  result: Partial<DeliveryResult> = {};
  preflights = 0;
  async preflight(): Promise<PreflightOutcome> {
    this.preflights += 1;
    return this.notReady ? { kind: 'not-ready', readiness: this.notReady } : { kind: 'ready' };
  }
  async deliver(doc: PreparedDocument, signal: AbortSignal): Promise<DeliveryResult> {
    if (this.gate) await Promise.race([this.gate, new Promise((_, reject) => signal.addEventListener('abort', () => reject(new DeviceError('CANCELED', 'Canceled'))))]);
    if (this.failNext) {
      const err = this.failNext;
      this.failNext = null;
      throw err;
    }
    this.delivered.push(Buffer.from(doc.bytes).toString().repeat(doc.repeat));
    return { bytes: doc.bytes.length * doc.repeat, ...this.result };
  }
  async status() {
    return { status: 'online' as const, statusReasons: [] };
  }
}


/** True once the spool's markers say the job's sending began. */
function sendingOnDisk(spoolDir: string, jobId: string): boolean {
  const file = join(spoolDir, 'marks.log');
  return existsSync(file) && readFileSync(file, 'utf8').includes(`sending ${jobId}\n`);
}

function printer(path: string, content: PrinterRecord['content'] = 'zpl'): PrinterRecord {
  return { path, id: path.toUpperCase().slice(0, 8), tags: [], discovered: false, content, connection: { type: 'network', host: 'h', port: 9100, protocol: 'tcp' } };
}

function submission(text: string, extra: Partial<Submission> = {}): Submission {
  return { document: { source: { kind: 'inline' }, format: 'zpl', contentType: 'zpl' }, data: Buffer.from(text), title: text, source: null, wait: true, options: {}, idempotencyKey: null, ...extra };
}

async function setup(spoolDir = tempDir('spool'), interrupted: 'resend' | 'fail' = 'fail') {
  const drivers = new Map<string, MemoryDriver>();
  const driverFor = (p: PrinterRecord) => {
    if (!drivers.has(p.path)) drivers.set(p.path, new MemoryDriver());
    return drivers.get(p.path)!;
  };
  const printers = new Map(['a', 'b'].map((n) => [n, printer(n)]));
  const { spooler, store } = await spoolerHarness({ spoolDir, findPrinter: (path) => printers.get(path) ?? null, openDriver: driverFor, interrupted });
  return { spooler, store, driverFor, printers, spoolDir };
}

test('jobs to one printer run in submission order; wait:true answers after delivery', async () => {
  const { spooler, driverFor, printers } = await setup();
  const a = printers.get('a')!;
  const results = await Promise.all(['1', '2', '3', '4'].map((t, i) => spooler.submit(submission(t, { wait: i % 2 === 0 }), [a], 'a')));
  await until('four jobs delivered', () => driverFor(a).delivered.length === 4);
  assert.deepEqual(driverFor(a).delivered, ['1', '2', '3', '4']);
  assert.equal(results[0].jobs[0].state, 'completed');
  assert.match(results[0].jobs[0].jobId, /^pj_[0-9a-f]{12}$/);
  assert.deepEqual(results.map((r) => Number(r.jobs[0].cupsJobId)), [1, 2, 3, 4]);
});

test('ZPL copies send the format that many times, unmodified', async () => {
  const { spooler, driverFor, printers } = await setup();
  const a = printers.get('a')!;
  await spooler.submit(submission('^XA^FDx^FS^XZ', { options: { copies: 3 } }), [a], 'a');
  assert.deepEqual(driverFor(a).delivered, ['^XA^FDx^FS^XZ'.repeat(3)]);
});

test('an idempotency key returns the existing job and prints nothing again', async () => {
  const { spooler, driverFor, printers } = await setup();
  const a = printers.get('a')!;
  const first = await spooler.submit(submission('once', { idempotencyKey: 'k1' }), [a], 'a');
  const again = await spooler.submit(submission('once', { idempotencyKey: 'k1' }), [a], 'a');
  assert.equal(again.replay, true);
  assert.equal(again.jobs[0].jobId, first.jobs[0].jobId);
  assert.deepEqual(driverFor(a).delivered, ['once']);
});

test('a failed delivery fails only its job and the queue moves on', async () => {
  const { spooler, driverFor, printers } = await setup();
  const a = printers.get('a')!;
  driverFor(a).failNext = new DeviceError('CONNECTION_RESET', 'tcp h:9100: connection reset by the printer after 3 of 9 bytes');
  const failed = await spooler.submit(submission('bad'), [a], 'a');
  const ok = await spooler.submit(submission('good'), [a], 'a');
  assert.equal(failed.jobs[0].state, 'failed');
  assert.equal(failed.jobs[0].error, 'tcp h:9100: connection reset by the printer after 3 of 9 bytes');
  assert.ok(failed.jobs[0].completedAt);
  assert.equal(ok.jobs[0].state, 'completed');
});

test('not ready: wait:true fails with the readiness; wait:false holds the queue until ready', async () => {
  const { spooler, driverFor, printers } = await setup();
  const a = printers.get('a')!;
  driverFor(a).notReady = PAUSED;
  const held = await spooler.submit(submission('later', { wait: false }), [a], 'a');
  assert.equal(held.jobs[0].state, 'queued');
  await until('the held job asked the printer again', () => driverFor(a).preflights >= 3);
  assert.equal(held.jobs[0].state, 'queued');
  assert.deepEqual(driverFor(a).delivered, []);
  const refused = await spooler.submit(submission('now'), [a], 'a');
  assert.equal(refused.jobs[0].state, 'failed');
  assert.deepEqual(refused.notReady.get(refused.jobs[0].jobId), PAUSED);
  driverFor(a).notReady = null;
  await until('the held job completes once ready', () => held.jobs[0].state === 'completed');
  assert.deepEqual(driverFor(a).delivered, ['later']);
});

test('cancel moves a queued job to failed "Canceled" and it is never sent', async () => {
  const { spooler, driverFor, printers } = await setup();
  const a = printers.get('a')!;
  let open!: () => void;
  driverFor(a).gate = new Promise((r) => (open = r));
  const first = await spooler.submit(submission('first', { wait: false }), [a], 'a');
  const second = await spooler.submit(submission('second', { wait: false }), [a], 'a');
  spooler.cancel(second.jobs[0].jobId);
  assert.equal(second.jobs[0].state, 'failed');
  assert.equal(second.jobs[0].error, 'Canceled');
  open();
  await until('the first job completes', () => first.jobs[0].state === 'completed');
  assert.deepEqual(driverFor(a).delivered, ['first']);
});

test('wait:false jobs are on disk before submit resolves and are delivered after a restart, in order', async () => {
  const first = await setup();
  const a = first.printers.get('a')!;
  first.driverFor(a).notReady = PAUSED;
  for (const t of ['j1', 'j2', 'j3']) await first.spooler.submit(submission(t, { wait: false }), [a], 'a');
  assert.equal(readdirSync(first.spoolDir).filter((f) => f.endsWith('.job')).length, 3);
  await first.spooler.close(50);

  const second = await setup(first.spoolDir);
  assert.equal(second.spooler.recover(), 3);
  await until('three recovered jobs complete', () => second.store.list().filter((j) => j.state === 'completed').length === 3);
  assert.deepEqual(second.driverFor(a).delivered, ['j1', 'j2', 'j3']);
  assert.equal(second.store.list().filter((j) => j.state === 'completed').length, 3);
  // a completed job leaves the spool once its record says so (the removal follows the state change)
  await until('the spool is empty', () => readdirSync(first.spoolDir).filter((f) => f.endsWith('.job')).length === 0);
});

test('an idempotency key outlives a restart with its spooled jobs: the same submission after it gets them back, printed once', async () => {
  const first = await setup();
  const [a, b] = [first.printers.get('a')!, first.printers.get('b')!];
  first.driverFor(a).notReady = PAUSED;
  first.driverFor(b).notReady = PAUSED;
  const made = await first.spooler.submit(submission('fan-out', { wait: false, idempotencyKey: 'k-restart' }), [a, b], 'all');
  await first.spooler.close(50);

  const second = await setup(first.spoolDir);
  second.spooler.recover();
  const again = await second.spooler.submit(submission('fan-out', { wait: false, idempotencyKey: 'k-restart' }), [a, b], 'all');
  assert.equal(again.replay, true);
  assert.deepEqual(again.jobs.map((j) => j.jobId).sort(), made.jobs.map((j) => j.jobId).sort());
  await until('both recovered jobs complete', () => again.jobs.every((j) => second.store.get(j.jobId)?.state === 'completed'));
  assert.deepEqual([...second.driverFor(a).delivered, ...second.driverFor(b).delivered], ['fan-out', 'fan-out']);
});

test('a wait:false outcome shows its jobs as accepted (queued), while its live records go on to printing', async () => {
  const { spooler, driverFor, printers } = await setup();
  const a = printers.get('a')!;
  let open!: () => void;
  driverFor(a).gate = new Promise((r) => (open = r));
  const outcome = await spooler.submit(submission('accepted', { wait: false }), [a], 'a');
  await until('the live job is being sent', () => outcome.jobs[0].state === 'printing');
  assert.deepEqual([outcome.accepted?.[0].jobId, outcome.accepted?.[0].state], [outcome.jobs[0].jobId, 'queued']);
  open();
  await until('the job completes', () => outcome.jobs[0].state === 'completed');
  assert.equal(outcome.accepted?.[0].state, 'queued', 'the accepted record is a copy, not the live one');
});

test('a job whose sending had begun before a restart is failed, not sent twice', async () => {
  const first = await setup();
  const a = first.printers.get('a')!;
  let open!: () => void;
  first.driverFor(a).gate = new Promise((r) => (open = r));
  const sub = await first.spooler.submit(submission('once', { wait: false }), [a], 'a');
  await until('the sending marker is on disk', () => sendingOnDisk(first.spoolDir, sub.jobs[0].jobId));

  const second = await setup(first.spoolDir);
  second.spooler.recover();
  const job = second.store.get(sub.jobs[0].jobId)!;
  assert.equal(job.state, 'failed');
  assert.match(job.error!, /restarted while this job was being sent; it was not sent again/);
  assert.deepEqual(second.driverFor(a).delivered, []);
  open();
});

test('a label printer\'s job a restart interrupted is sent again; one in progress during two restarts in a row is failed, not replayed', async () => {
  const gate = () => new Promise<void>(() => undefined);
  const first = await setup(tempDir('spool'), 'resend');
  const a = first.printers.get('a')!;
  first.driverFor(a).gate = gate();
  const sub = await first.spooler.submit(submission('poison', { wait: false }), [a], 'a');
  await until('the first attempt is sending', () => sendingOnDisk(first.spoolDir, sub.jobs[0].jobId));

  const second = await setup(first.spoolDir, 'resend');
  second.driverFor(a).gate = gate();
  second.spooler.recover();
  assert.equal(second.store.get(sub.jobs[0].jobId)!.state, 'queued', 'resent after one interruption');
  await until('the second attempt is sending', () => second.store.get(sub.jobs[0].jobId)!.state === 'printing');

  const third = await setup(first.spoolDir, 'resend');
  third.spooler.recover();
  const job = third.store.get(sub.jobs[0].jobId)!;
  assert.equal(job.state, 'failed');
  assert.equal(job.errorCode, 'INTERRUPTED');
  assert.match(job.error!, /restarted twice in a row while working on this job/);
  assert.deepEqual(third.driverFor(a).delivered, []);
  await until('the poison job leaves the spool', () => readdirSync(first.spoolDir).filter((f) => f.endsWith('.job')).length === 0);
});

test('a held wait:false job keeps no document bytes in memory: they are read back from the spool when it is sent', async () => {
  const { spooler, driverFor, printers, spoolDir } = await setup();
  const a = printers.get('a')!;
  driverFor(a).notReady = PAUSED;
  const held = await spooler.submit(submission('from disk', { wait: false }), [a], 'a');
  // the job's file: its entry line, then the document's bytes; the bytes are changed in place (same length)
  const jobFile = join(spoolDir, readdirSync(spoolDir).find((f) => f.endsWith('.job'))!);
  const stored = readFileSync(jobFile);
  assert.equal(stored.subarray(-'from disk'.length).toString(), 'from disk');
  writeFileSync(jobFile, Buffer.concat([stored.subarray(0, -'from disk'.length), Buffer.from('on disk!!')]));
  driverFor(a).notReady = null;
  await until('the held job completes', () => held.jobs[0].state === 'completed');
  assert.deepEqual(driverFor(a).delivered, ['on disk!!']);
});

test('beyond the limit of unfinished jobs a submission is refused with QUEUE_FULL, and accepted again once jobs end', async () => {
  const printers = new Map([['a', printer('a')]]);
  const driver = new MemoryDriver();
  driver.notReady = PAUSED;
  const { spooler, store } = await spoolerHarness({ spoolDir: tempDir('spool'), findPrinter: (path) => printers.get(path) ?? null, openDriver: () => driver, maxUnfinished: 2 });
  const a = printers.get('a')!;
  await spooler.submit(submission('1', { wait: false }), [a], 'a');
  await spooler.submit(submission('2', { wait: false }), [a], 'a');
  await assert.rejects(spooler.submit(submission('3', { wait: false }), [a], 'a'), (err: AppError) => err.code === 'QUEUE_FULL' && /2 jobs waiting or printing/.test(err.message));
  assert.equal(store.list().length, 2, 'the refused job left no record');
  driver.notReady = null;
  await until('the held jobs end', () => store.unfinished() === 0);
  const accepted = await spooler.submit(submission('4'), [a], 'a');
  assert.equal(accepted.jobs[0].state, 'completed');
});

test('a delivery the printer reports as pending but without its job id completes rather than staying printing', async () => {
  const { spooler, driverFor, printers } = await setup();
  const a = printers.get('a')!;
  driverFor(a).result = { pending: true };
  const outcome = await spooler.submit(submission('held'), [a], 'a');
  assert.equal(outcome.jobs[0].state, 'completed');
  assert.ok(outcome.jobs[0].completedAt);
});
