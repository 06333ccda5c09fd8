// A `ready` pre-flight answer covers the jobs already queued when it was asked (PREFLIGHT_COVERS_MS); the next job renders while the current one is being sent to the same printer; its pre-flight still comes right
// before its own send, jobs go out in order, once each, and a printer that goes away fails the waiting job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DeviceError } from '../../src/errors';
import { EventBus } from '../../src/events/event-bus';
import type { FilterInput } from '../../src/filters/filters';
import type { DeliveryResult, PreflightOutcome, PreparedDocument, PrinterDriver, Readiness } from '../../src/kinds/printer-driver';
import { silentLogger } from '../../src/log';
import { PrinterRuntimes } from '../../src/printers/printer-runtimes';
import type { JobWork } from '../../src/printers/printer-runtime';
import type { JobRecord } from '../../src/schemas/job';
import type { PrinterRecord } from '../../src/schemas/printer';
import { until } from '../helpers/until';

const PAUSED: Readiness = { ready: false, paperOut: false, paused: true, headOpen: false, ribbonOut: false, errors: ['Printer is paused'] };
const printer: PrinterRecord = { path: 'tcp_h_9100', id: 'AAAAAAAA', tags: [], discovered: false, content: 'zpl', connection: { type: 'network', host: 'h', port: 9100, protocol: 'tcp' } };

/** A driver whose deliveries wait for `open()`; it logs every pre-flight and send, in order. */
class GatedDriver implements PrinterDriver {
  readonly log: string[] = [];
  notReady: Readiness | null = null;
  gone = false;
  failOnce = false;
  private opened!: () => void;
  private gate = new Promise<void>((resolve) => (this.opened = resolve));
  open(): void {
    this.opened();
  }
  async preflight(): Promise<PreflightOutcome> {
    this.log.push('preflight');
    return this.notReady ? { kind: 'not-ready', readiness: this.notReady } : { kind: 'ready' };
  }
  async deliver(doc: PreparedDocument): Promise<DeliveryResult> {
    const name = Buffer.from(doc.bytes).toString();
    this.log.push(`send ${name} begins`);
    await this.gate;
    if (this.failOnce) {
      this.failOnce = false;
      throw new DeviceError('CONNECTION_RESET', 'tcp h:9100: connection reset by the printer after 0 of 3 bytes');
    }
    if (this.gone) throw new DeviceError('CONNECT_REFUSED', 'tcp h:9100: connection refused (is the printer on and listening on port 9100?)');
    this.log.push(`send ${name} ends`);
    return { bytes: doc.bytes.length };
  }
  async status() {
    return { status: 'online' as const, statusReasons: [] };
  }
}

function setup() {
  const driver = new GatedDriver();
  /** The printer's record as the registry has it now (null: deleted); every render's input and document, in order. */
  const state: { printer: PrinterRecord | null; inputs: FilterInput[]; docs: Array<WeakRef<PreparedDocument>> } = { printer, inputs: [], docs: [] };
  const runtimes = new PrinterRuntimes({
    findPrinter: () => state.printer,
    openDriver: () => driver,
    languageOf: () => 'zpl',
    prepare: async (input: FilterInput) => {
      driver.log.push(`render ${Buffer.from(input.bytes).toString()}`);
      state.inputs.push(input);
      const doc: PreparedDocument = { bytes: input.bytes, repeat: 1, mimeType: 'application/vnd.zebra-zpl', title: input.title, userName: input.userName, options: input.options };
      state.docs.push(new WeakRef(doc));
      return doc;
    },
    bus: new EventBus(silentLogger),
    logger: silentLogger,
    holdRetryMs: 5,
    maxHoldMs: 60_000,
    now: Date.now,
    printed: { pollMs: 10, maxFollowMs: 60_000 },
  });
  const runtime = runtimes.of(printer.path);
  const submit = (name: string, wait = true, stored?: Promise<void>): { job: JobRecord; work: JobWork; done: Promise<void> } => {
    const job: JobRecord = { jobId: `pj_${name}`, printer: printer.path, target: printer.path, title: name, source: null, state: 'queued', error: null, errorCode: null, createdAt: new Date().toISOString(), completedAt: null, contentType: 'zpl', size: 0, cupsJobId: name, printedAt: null };
    const work: JobWork = {
      job,
      wait,
      options: {},
      format: 'zpl',
      controller: new AbortController(),
      load: async () => Buffer.from(name),
      beforePrepare: async () => undefined,
      beforeSend: async () => undefined,
      release: async () => undefined,
    };
    runtime.admit(job);
    return { job, work, done: runtime.run(work, stored) };
  };
  return { driver, runtime, submit, state };
}

/** True once a full collection freed what `ref` points to (a few collections, each after a turn of the event loop). */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  for (let i = 0; i < 10 && ref.deref() !== undefined; i += 1) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return ref.deref() === undefined;
}

test('job 2 renders while job 1 is being sent; its pre-flight comes after job 1\'s send, then it is sent', async () => {
  const { driver, submit } = setup();
  const one = submit('one');
  await until('job 1 is being sent', () => driver.log.includes('send one begins'));
  const two = submit('two');
  await until('job 2 renders while job 1 is still being sent', () => driver.log.includes('render two'));
  assert.ok(!driver.log.includes('send one ends'), 'job 1 was still being sent');
  driver.open();
  await Promise.all([one.done, two.done]);
  assert.deepEqual(driver.log, ['preflight', 'render one', 'send one begins', 'render two', 'send one ends', 'preflight', 'send two begins', 'send two ends']);
  assert.deepEqual([one.job.state, two.job.state], ['completed', 'completed']);
});

test('a printer that became not ready while job 1 was sent: the rendered wait:true job 2 is refused with its readiness, never sent', async () => {
  const { driver, submit } = setup();
  const one = submit('one');
  await until('job 1 is being sent', () => driver.log.includes('send one begins'));
  const two = submit('two');
  await until('job 2 rendered behind job 1', () => driver.log.includes('render two'));
  driver.notReady = PAUSED;
  driver.open();
  await Promise.all([one.done, two.done]);
  assert.equal(one.job.state, 'completed');
  assert.deepEqual([two.job.state, two.job.errorCode, two.work.readiness], ['failed', 'NOT_READY', PAUSED]);
  assert.ok(!driver.log.includes('send two begins'), 'nothing of job 2 was sent');
});

test('a wait:false job 2 rendered behind job 1 is held while the printer is not ready, then sent once', async () => {
  const { driver, submit } = setup();
  const one = submit('one');
  await until('job 1 is being sent', () => driver.log.includes('send one begins'));
  const two = submit('two', false);
  await until('job 2 rendered behind job 1', () => driver.log.includes('render two'));
  driver.notReady = PAUSED;
  driver.open();
  await one.done;
  await until('job 2 is held: the printer is asked again', () => driver.log.filter((l) => l === 'preflight').length >= 4);
  assert.equal(two.job.state, 'queued');
  driver.notReady = null;
  await two.done;
  assert.equal(two.job.state, 'completed');
  assert.equal(driver.log.filter((l) => l === 'send two begins').length, 1, 'sent once');
  assert.equal(driver.log.filter((l) => l === 'render two').length, 2, 'rendered again once ready: a held job keeps no rendered bytes');
});

test('a printer that goes away while job 1 is sent: both jobs fail with the printer\'s error, nothing hangs', async () => {
  const { driver, submit } = setup();
  const one = submit('one');
  const two = submit('two');
  await until('job 2 rendered behind job 1', () => driver.log.includes('render two'));
  driver.gone = true;
  driver.open();
  await Promise.all([one.done, two.done]);
  assert.deepEqual([one.job.state, two.job.state], ['failed', 'failed']);
  assert.match(two.job.error ?? '', /connection refused/);
});

test('a cancelled job waiting behind a job being sent is not sent', async () => {
  const { driver, runtime, submit } = setup();
  const one = submit('one');
  const two = submit('two');
  await until('job 2 rendered behind job 1', () => driver.log.includes('render two'));
  assert.equal(runtime.cancel(two.job), true);
  driver.open();
  await Promise.all([one.done, two.done]);
  assert.deepEqual([one.job.state, two.job.state, two.job.error], ['completed', 'failed', 'Canceled']);
  assert.ok(!driver.log.includes('send two begins'));
});

test('jobs queued together are covered by one ready pre-flight; a job queued after the answer is asked for again', async () => {
  const { driver, submit } = setup();
  driver.open();
  const batch = ['one', 'two', 'three'].map((name) => submit(name));
  await Promise.all(batch.map((b) => b.done));
  assert.equal(driver.log.filter((l) => l === 'preflight').length, 1, driver.log.join(', '));
  assert.deepEqual(driver.log.filter((l) => l.endsWith('ends')), ['send one ends', 'send two ends', 'send three ends']);
  await submit('four').done;
  assert.equal(driver.log.filter((l) => l === 'preflight').length, 2, 'a job queued after the answer is asked for on its own');
});

test('after a failed delivery the next queued job is asked for again, and a not-ready answer refuses it', async () => {
  const { driver, submit } = setup();
  driver.failOnce = true;
  const one = submit('one');
  const two = submit('two');
  await until('job 2 rendered behind job 1', () => driver.log.includes('render two'));
  driver.notReady = PAUSED;
  driver.open();
  await Promise.all([one.done, two.done]);
  assert.deepEqual([one.job.state, two.job.state, two.job.errorCode], ['failed', 'failed', 'NOT_READY']);
  assert.equal(driver.log.filter((l) => l === 'preflight').length, 2);
});

test('shutdown while job 2 waits rendered behind job 1: job 1 ends, job 2 is not sent and stays queued (wait: false, kept in the spool)', async () => {
  const { driver, runtime, submit } = setup();
  const one = submit('one');
  await until('job 1 is being sent', () => driver.log.includes('send one begins'));
  const two = submit('two', false);
  await until('job 2 rendered behind job 1', () => driver.log.includes('render two'));
  const closed = runtime.close(60_000, (work) => !work.wait);
  driver.open();
  await Promise.all([closed, one.done, two.done]);
  assert.equal(one.job.state, 'completed');
  assert.equal(two.job.state, 'queued');
  assert.ok(!driver.log.includes('send two begins'), 'job 2 was not sent during the shutdown');
});

test('shutdown while job 2 waits behind a held job 1 (which holds both lanes): job 2 is never sent and stays queued', async () => {
  const { driver, runtime, submit } = setup();
  driver.open();
  driver.notReady = PAUSED;
  const one = submit('one', false);
  await until('job 1 is held: the printer was asked', () => driver.log.includes('preflight'));
  await until('the queue is held', () => runtime.heldReadiness !== null);
  const two = submit('two', false);
  const closed = runtime.close(60_000, (work) => !work.wait);
  driver.notReady = null;
  await Promise.all([closed, one.done, two.done]);
  assert.deepEqual([one.job.state, two.job.state], ['queued', 'queued']);
  assert.ok(!driver.log.some((l) => l.startsWith('send')), 'nothing was sent during the shutdown');
});

test('a wait:false job 2 rendered behind job 1 and then held by a not-ready printer keeps no rendered document while it waits', async () => {
  const { driver, runtime, submit, state } = setup();
  const one = submit('one');
  await until('job 1 is being sent', () => driver.log.includes('send one begins'));
  const two = submit('two', false);
  await until('job 2 rendered behind job 1', () => driver.log.includes('render two'));
  const rendered = state.docs.at(-1)!;
  driver.notReady = PAUSED;
  driver.open();
  await one.done;
  await until('job 2 is held', () => runtime.heldReadiness !== null);
  assert.equal(await collected(rendered), true, 'the document job 2 rendered ahead was dropped while the queue is held');
  driver.notReady = null;
  await two.done;
  assert.equal(two.job.state, 'completed');
});

test('a printer deleted while job 1 is sent: job 2, rendered behind it, is not sent and fails DEVICE_GONE', async () => {
  const { driver, submit, state } = setup();
  const one = submit('one');
  await until('job 1 is being sent', () => driver.log.includes('send one begins'));
  const two = submit('two');
  await until('job 2 rendered behind job 1', () => driver.log.includes('render two'));
  state.printer = null;
  driver.open();
  await Promise.all([one.done, two.done]);
  assert.equal(one.job.state, 'completed');
  assert.deepEqual([two.job.state, two.job.errorCode], ['failed', 'DEVICE_GONE']);
  assert.ok(!driver.log.includes('send two begins'), 'nothing of job 2 went to the deleted printer');
});

test('a printer edited while job 1 is sent (300 dpi now): job 2, rendered behind it for the old record, is rendered again for the new one, asked for and sent once', async () => {
  const { driver, submit, state } = setup();
  const one = submit('one');
  await until('job 1 is being sent', () => driver.log.includes('send one begins'));
  const two = submit('two');
  await until('job 2 rendered behind job 1', () => driver.log.includes('render two'));
  state.printer = { ...printer, dpi: 300 };
  driver.open();
  await Promise.all([one.done, two.done]);
  assert.equal(two.job.state, 'completed');
  assert.deepEqual(driver.log.slice(driver.log.indexOf('send one ends')), ['send one ends', 'preflight', 'render two', 'send two begins', 'send two ends']);
  assert.equal(state.inputs.at(-1)!.printer.dpi, 300, 'the document sent was rendered for the printer as it is now');
});

/** A few turns of the event loop: what a job would do next without waiting for anything has been done by then. */
async function turns(n = 5): Promise<void> {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
}

test('a job renders while its disk write is under way, and is sent only once the write resolved', async () => {
  const { driver, submit } = setup();
  driver.open();
  let written!: () => void;
  const one = submit('one', false, new Promise<void>((resolve) => (written = resolve)));
  one.work.release = async () => void driver.log.push('release one');
  await until('job 1 rendered during its write', () => driver.log.includes('render one'));
  await turns();
  driver.log.push('written');
  written();
  await one.done;
  assert.deepEqual(driver.log, ['preflight', 'render one', 'written', 'send one begins', 'send one ends', 'release one']);
  assert.equal(one.job.state, 'completed');
});

test('a failed disk write fails its job at once with the write\'s code, even behind a held queue; nothing is sent or released', async () => {
  const { driver, submit } = setup();
  driver.notReady = PAUSED;
  let refuse!: (err: Error) => void;
  const one = submit('one', false, new Promise<void>((_, reject) => (refuse = reject)));
  one.work.release = async () => void driver.log.push('release one');
  await until('job 1 waits for the printer', () => driver.log.includes('preflight'));
  refuse(new DeviceError('SPOOL_WRITE', 'the job could not be written to the spool: ENOSPC'));
  await until('job 1 failed', () => one.job.state === 'failed');
  assert.equal(one.job.errorCode, 'SPOOL_WRITE');
  driver.notReady = null;
  driver.open();
  await one.done;
  assert.ok(!driver.log.some((line) => line.startsWith('send') || line.startsWith('release')), driver.log.join(', '));
});
