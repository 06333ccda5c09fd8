// Issue 35's job path on a raw TCP printer: the pre-flight `~HS` and the label go on one connection, kept open while the
// printer's jobs follow back to back and closed as soon as its queue is empty; a job after the close opens a new one, and
// a printer that drops the connection mid-session fails the job being sent as it would on a connection of its own. A job
// sent on a connection kept open is completed only once the printer confirmed it read it there (the next `~HS`
// answered after it, or the close); one whose connection fails first fails, so no label is lost while called completed.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventBus } from '../../src/events/event-bus';
import type { FilterInput } from '../../src/filters/filters';
import { tcpKind } from '../../src/kinds/tcp';
import type { DeliveryResult, PreparedDocument, PrinterDriver } from '../../src/kinds/printer-driver';
import { languageOfContent } from '../../src/languages';
import { silentLogger } from '../../src/log';
import { PrinterRuntimes } from '../../src/printers/printer-runtimes';
import type { JobWork } from '../../src/printers/printer-runtime';
import type { JobRecord } from '../../src/schemas/job';
import type { PrinterRecord } from '../../src/schemas/printer';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { until } from '../helpers/until';

const TIMEOUTS = { connectMs: 5000, idleMs: 5000, queryMs: 2000 };
const emulators: ZplPrinterEmulator[] = [];
after(() => Promise.all(emulators.map((e) => e.stop())));

/** The label a job named `name` carries (`pad` characters of field data make it bigger). */
const label = (name: string, pad = 0): string => `^XA^FO10,10^FD${name}${'x'.repeat(pad)}^FS^XZ`;

/** The tcp kind's real driver for the emulator, whose deliveries of job `one` wait until `release()`; it logs what it was asked. */
function gatedTcpDriver(printer: PrinterRecord, timeouts: typeof TIMEOUTS): { driver: PrinterDriver; log: string[]; release: () => void } {
  const real = tcpKind.start({ timeouts, mdns: false, printerAt: () => null, logger: silentLogger, hardware: { usb: () => assert.fail('no USB here') }, warn: () => undefined }).openDriver(printer, languageOfContent('zpl'));
  const log: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const driver: PrinterDriver = {
    preflight: () => real.preflight(),
    status: () => real.status(),
    deviceSession: () => real.deviceSession!(),
    deliver: async (doc: PreparedDocument, signal: AbortSignal): Promise<DeliveryResult> => {
      const first = Buffer.from(doc.bytes).toString('latin1') === label('one');
      log.push(first ? 'send one' : 'send another');
      if (first) await gate;
      return real.deliver(doc, signal);
    },
  };
  return { driver, log, release };
}

async function setup(timeouts = TIMEOUTS) {
  const emulator = new ZplPrinterEmulator();
  emulators.push(emulator);
  const port = await emulator.start();
  const printer: PrinterRecord = { path: `tcp_127.0.0.1_${port}`, id: 'AAAAAAAA', tags: [], discovered: false, content: 'zpl', connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' } };
  const gated = gatedTcpDriver(printer, timeouts);
  const rendered: string[] = [];
  /** What happened, in order: `answered ~HS` as the emulator answers one, `<job> <state>` as a job changes state. */
  const timeline: string[] = [];
  const reply = emulator.hostStatusReply.bind(emulator);
  emulator.hostStatusReply = () => {
    timeline.push('answered ~HS');
    return reply();
  };
  const bus = new EventBus(silentLogger);
  bus.subscribe((event) => {
    const data = event.data as JobRecord;
    if (event.type === 'job.state') timeline.push(`${data.title} ${data.state}`);
  });
  const runtimes = new PrinterRuntimes({
    findPrinter: () => printer,
    openDriver: () => gated.driver,
    languageOf: () => 'zpl',
    prepare: async (input: FilterInput) => {
      rendered.push(Buffer.from(input.bytes).toString('latin1'));
      return { bytes: input.bytes, repeat: 1, mimeType: 'application/vnd.zebra-zpl', title: input.title, userName: input.userName, options: input.options };
    },
    bus,
    logger: silentLogger,
    holdRetryMs: 5,
    maxHoldMs: 60_000,
    now: Date.now,
    printed: { pollMs: 10, maxFollowMs: 60_000 },
  });
  const runtime = runtimes.of(printer.path);
  const submit = (name: string, bytes = label(name)): { job: JobRecord; done: Promise<void> } => {
    const job: JobRecord = { jobId: `pj_${name}`, printer: printer.path, target: printer.path, title: name, source: null, state: 'queued', error: null, errorCode: null, createdAt: new Date().toISOString(), completedAt: null, contentType: 'zpl', size: 0, cupsJobId: null, printedAt: null };
    const work: JobWork = { job, wait: false, options: {}, format: 'zpl', controller: new AbortController(), load: async () => Buffer.from(bytes, 'latin1'), beforePrepare: async () => undefined, beforeSend: async () => undefined, release: async () => undefined };
    runtime.admit(job);
    return { job, done: runtime.run(work) };
  };
  /** Job `one` is being sent and `two` was rendered behind it, waiting for its turn; then job one's send goes on. */
  const backToBack = async (two: string) => {
    const one = submit('one');
    await until('job one is being sent', () => gated.log.includes('send one'));
    const next = submit('two', two);
    await until('job two rendered behind job one', () => rendered.includes(two));
    gated.release();
    await Promise.all([one.done, next.done]);
    return [one.job, next.job];
  };
  return { emulator, submit, backToBack, timeline };
}

test('two jobs back to back go on one connection with their pre-flights answered on it; it closes once the queue is empty; the next job opens a new one', async () => {
  const { emulator, submit, backToBack } = await setup();
  const jobs = await backToBack(label('two'));
  assert.deepEqual(jobs.map((j) => j.state), ['completed', 'completed']);
  await emulator.waitForNoConnections(10_000);
  assert.equal(emulator.connections.length, 1, 'one connection carried both jobs');
  assert.equal(emulator.connections[0].toString('latin1'), `~HS\r\n${label('one')}~HS\r\n${label('two')}`);
  assert.equal(emulator.statusQueries, 2, 'both pre-flights were answered on it');
  assert.deepEqual(emulator.jobs().map((j) => j.toString('latin1')), [label('one'), label('two')]);
  const three = submit('three');
  await three.done;
  assert.equal(three.job.state, 'completed');
  await emulator.waitForNoConnections(10_000);
  assert.equal(emulator.connections.length, 2, 'a job after the close opens a connection of its own');
  assert.equal(emulator.connections[1].toString('latin1'), `~HS\r\n${label('three')}`);
  assert.deepEqual(emulator.formats(), [label('one'), label('two'), label('three')]);
});

test('a printer that resets the connection mid-session: the job being sent fails with the bytes it got, the one before it stays printed, the next job prints on a new connection', async () => {
  const { emulator, submit, backToBack } = await setup();
  emulator.resetAfterBytes = 1000;
  const big = label('two', 200_000);
  const [one, two] = await backToBack(big);
  assert.equal(one.state, 'completed');
  assert.equal(two.state, 'failed');
  assert.equal(two.errorCode, 'CONNECTION_RESET');
  assert.match(two.error ?? '', new RegExp(`connection reset by the printer after \\d+ of ${big.length} bytes`));
  await emulator.waitForNoConnections(10_000);
  emulator.resetAfterBytes = 0;
  const three = submit('three');
  await three.done;
  assert.equal(three.job.state, 'completed');
  assert.deepEqual(emulator.formats(), [label('one'), label('three')]);
  assert.equal(emulator.connections.length, 2);
});

test('a job sent on a connection kept open is completed only once the printer answered the ~HS sent after it', async () => {
  const { emulator, backToBack, timeline } = await setup();
  const jobs = await backToBack(label('two'));
  assert.deepEqual(jobs.map((j) => j.state), ['completed', 'completed']);
  await emulator.waitForNoConnections(10_000);
  assert.equal(emulator.connections.length, 1, 'both jobs went on one connection');
  // job one's own pre-flight, its label, then job two's pre-flight: its answer is what confirms job one
  const answers = timeline.flatMap((entry, i) => (entry === 'answered ~HS' ? [i] : []));
  assert.equal(answers.length, 2, timeline.join(', '));
  assert.ok(timeline.indexOf('one printing') < answers[1], timeline.join(', '));
  assert.ok(timeline.indexOf('one completed') > answers[1], `job one completed before the ~HS after it was answered: ${timeline.join(', ')}`);
  assert.ok(timeline.indexOf('two completed') > timeline.indexOf('one completed'), timeline.join(', '));
});

test('a printer that resets the connection right after a job, before answering the next ~HS: that job fails with the connection error, not completed; the next one prints on a new connection', async () => {
  const { emulator, backToBack, timeline } = await setup();
  // job one's connection carries `~HS`, its label, then job two's `~HS`: the printer resets it as that `~HS` arrives, unanswered
  emulator.resetAfterBytes = `~HS\r\n${label('one')}`.length;
  emulator.resetOnce = true;
  const [one, two] = await backToBack(label('two'));
  assert.equal(one.state, 'failed', timeline.join(', '));
  assert.equal(one.errorCode, 'CONNECTION_RESET');
  assert.match(one.error ?? '', /connection reset by the printer/);
  assert.equal(timeline.filter((e) => e === 'one completed').length, 0, 'job one never read as completed');
  assert.equal(two.state, 'completed');
  await emulator.waitForNoConnections(10_000);
  assert.equal(emulator.connections.length, 2, 'job two went on a new connection');
  // the printer dropped job one unread (the reset connection's last job); what it read is exactly what was completed
  assert.deepEqual(emulator.formats(), [label('two')]);
  assert.deepEqual(emulator.formats(), [one, two].filter((j) => j.state === 'completed').map((j) => label(j.title)));
});

test('a silent printer: jobs back to back still complete (the graceful close after the unanswered ~HS confirms the job before it) and nothing hangs', async () => {
  const { emulator, backToBack, submit, timeline } = await setup({ ...TIMEOUTS, queryMs: 50 });
  emulator.silent = true;
  const jobs = await backToBack(label('two'));
  assert.deepEqual(jobs.map((j) => j.state), ['completed', 'completed'], timeline.join(', '));
  const three = submit('three');
  await three.done;
  assert.equal(three.job.state, 'completed');
  await emulator.waitForNoConnections(10_000);
  assert.deepEqual(emulator.formats(), [label('one'), label('two'), label('three')]);
  assert.equal(emulator.statusQueries, 0, 'the printer answered nothing');
});
