// Confirmed printed: `printedAt` and `job.printed` follow a ZPL printer's `~HS` buffer after the job's bytes were accepted.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeviceEvent } from '../../src/events/event-bus';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until, valueWithin } from '../helpers/until';

let d: InProcessDaemon;
const printed: DeviceEvent[] = [];
const emulators: ZplPrinterEmulator[] = [];

before(async () => {
  d = await startInProcess({ usb: () => new FakeUsbBus() }, undefined, false, false, { PRINTPROXY_PRINTED_POLL_MS: '20' });
  d.events.subscribe((e) => {
    if (e.type === 'job.printed') printed.push(e);
  });
});
after(async () => {
  await d.stop();
  for (const e of emulators) await e.stop();
});

async function addPrinter(setup: (e: ZplPrinterEmulator) => void, content: 'zpl' | 'raw' = 'zpl'): Promise<{ emulator: ZplPrinterEmulator; path: string }> {
  const emulator = new ZplPrinterEmulator();
  setup(emulator);
  emulators.push(emulator);
  const port = await emulator.start();
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content } });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  return { emulator, path: added.body.result.content.path };
}

async function printJob(path: string, zpl: string): Promise<string> {
  const res = await d.api('POST', `/print/${path}`, { body: { content: zpl, contentType: 'zpl' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.result.content.state, 'completed');
  return res.body.result.content.jobId;
}

const job = async (jobId: string) => (await d.api('GET', `/jobs/${jobId}`)).body.result.content;
const printedEvents = (jobId: string) => printed.filter((e) => (e.data as { jobId: string }).jobId === jobId);

test('printedAt is set, and job.printed sent once, only after the buffer holding the job\'s labels drains', async () => {
  const { emulator, path } = await addPrinter((e) => (e.printRate = 0));
  const jobId = await printJob(path, '^XA^FDone^FS^PQ3^XZ^XA^FDtwo^FS^XZ');
  assert.equal(emulator.formatsBuffered(), 2);
  // the daemon has read the full buffer several times since the job was accepted, and claims nothing
  const asked = emulator.hostStatusAsked;
  await until('three ~HS reads after the job', () => emulator.hostStatusAsked >= asked + 3);
  assert.equal((await job(jobId)).printedAt, null);
  assert.equal(printedEvents(jobId).length, 0);

  emulator.drain();
  const drainedAt = Date.now();
  const at = await valueWithin('printedAt after the drain', 10_000, async () => (await job(jobId)).printedAt);
  const record = await job(jobId);
  assert.ok(Date.parse(at) >= Date.parse(record.completedAt));
  assert.ok(Date.parse(at) >= drainedAt - 1, 'printedAt is not earlier than the drain');
  assert.equal(emulator.labelsPrinted, 4);
  const events = printedEvents(jobId);
  assert.equal(events.length, 1);
  assert.deepEqual(events[0].data, { jobId, printerPath: path });
});

test('jobs behind one another are confirmed in order, each once its own labels left, while later ones still wait', async () => {
  const { emulator, path } = await addPrinter((e) => (e.printRate = 0));
  const first = await printJob(path, '^XA^FDa^FS^XZ');
  const second = await printJob(path, '^XA^FDb^FS^XZ^XA^FDc^FS^XZ');
  assert.equal(emulator.formatsBuffered(), 3);
  // print only the first job's label: the second's two formats stay
  emulator.drain(1);
  await valueWithin('first job printed', 10_000, async () => (await job(first)).printedAt);
  const asked = emulator.hostStatusAsked;
  await until('three more ~HS reads', () => emulator.hostStatusAsked >= asked + 3);
  assert.equal((await job(second)).printedAt, null);
  emulator.drain();
  await valueWithin('second job printed', 10_000, async () => (await job(second)).printedAt);
  assert.deepEqual(
    printed.filter((e) => [first, second].includes((e.data as { jobId: string }).jobId)).map((e) => (e.data as { jobId: string }).jobId),
    [first, second],
  );
});

test('labels that leave at a set rate are confirmed once the last one is out', async () => {
  const { emulator, path } = await addPrinter((e) => (e.printRate = 50));
  const jobId = await printJob(path, '^XA^FDrate^FS^PQ10^XZ');
  await valueWithin('printedAt', 10_000, async () => (await job(jobId)).printedAt);
  assert.equal(emulator.labelsPrinted, 10);
  assert.equal(emulator.formatsBuffered(), 0);
});

test('a paper-out printer holds its labels: no printedAt until paper is back and the buffer drains', async () => {
  const { emulator, path } = await addPrinter((e) => (e.printRate = 0));
  const jobId = await printJob(path, '^XA^FDpaper^FS^PQ5^XZ');
  emulator.state.paperOut = true;
  emulator.startPrinting(50);
  const asked = emulator.hostStatusAsked;
  await until('three ~HS reads while out of paper', () => emulator.hostStatusAsked >= asked + 3);
  assert.equal((await job(jobId)).printedAt, null);
  assert.equal(emulator.labelsPrinted, 0);
  emulator.state.paperOut = false;
  await valueWithin('printedAt', 10_000, async () => (await job(jobId)).printedAt);
  assert.equal(emulator.labelsPrinted, 5);
});

test('a ZPL printer that does not answer ~HS never gets printedAt: nothing is claimed', async () => {
  const { emulator, path } = await addPrinter((e) => (e.silentToHostStatus = true));
  const jobId = await printJob(path, '^XA^FDsilent^FS^XZ');
  const asked = emulator.hostStatusAsked;
  // the daemon gives up after three unanswered reads
  await until('three unanswered ~HS reads', () => emulator.hostStatusAsked >= asked + 3);
  assert.equal((await job(jobId)).printedAt, null);
  assert.equal(printedEvents(jobId).length, 0);
});

test('a raw TCP printer is never followed and never gets printedAt', async () => {
  const { emulator, path } = await addPrinter(() => undefined, 'raw');
  const asked = emulator.hostStatusAsked;
  const res = await d.api('POST', `/print/${path}`, { body: { content: '^XA^FDraw^FS^XZ', contentType: 'zpl' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const jobId = res.body.result.content.jobId;
  // a second job through the same queue: the first was long done when it ends
  await printJob(path, '^XA^FDraw2^FS^XZ');
  assert.equal(emulator.hostStatusAsked, asked);
  assert.equal((await job(jobId)).printedAt, null);
  assert.equal(printedEvents(jobId).length, 0);
});
