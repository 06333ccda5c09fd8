// Live events from the whole daemon over /api/v1/events: a job's states in order, printer status changes, resume.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeviceEvent } from '../../src/events/event-bus';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until } from '../helpers/until';
import { connectWs, isSocket, nextJson, type TestSocket } from './ws-test-client';

const KEY = 'inproc-key-0123456789abcdef';
let d: InProcessDaemon;
let emulator: ZplPrinterEmulator;
let path: string;

before(async () => {
  d = await startInProcess({ usb: () => new FakeUsbBus() }, undefined, false, false, { PRINTPROXY_MONITOR_INTERVAL_MS: '100' });
  emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  assert.equal(added.status, 201);
  path = added.body.result.content.path;
});
after(async () => {
  await d.stop();
  await emulator.stop();
});

/** A browser-style client: no header, the key in the first message. */
async function browserClient(extra: Record<string, unknown> = {}): Promise<{ ws: TestSocket; hello: any }> {
  const answer = await connectWs(d.httpPort, '/api/v1/events');
  assert.ok(isSocket(answer));
  answer.sendText(JSON.stringify({ type: 'auth', apiKey: KEY, ...extra }));
  return { ws: answer, hello: await json(answer) };
}

const json = (ws: TestSocket): Promise<any> => nextJson(ws, 10_000);

/** Reads events until `match` accepts one; returns every event read on the way, that one last. */
async function readUntil(ws: TestSocket, match: (e: any) => boolean): Promise<any[]> {
  const seen: any[] = [];
  for (;;) {
    const event = await json(ws);
    seen.push(event);
    if (match(event)) return seen;
  }
}

test('a browser-style client sees a job go queued, printing, completed, in order, each as GET /jobs/{jobId} shows it', async () => {
  const { ws, hello } = await browserClient();
  assert.equal(hello.type, 'hello');
  assert.match(hello.bootId, /^[0-9a-f-]{36}$/);
  const res = await d.api('POST', `/print/${path}`, { body: { content: '^XA^FDevents^FS^XZ', contentType: 'zpl' } });
  assert.equal(res.status, 200);
  const jobId = res.body.result.content.jobId;
  const events = (await readUntil(ws, (e) => e.type === 'job.state' && e.data.jobId === jobId && e.data.state === 'completed')).filter((e) => e.type === 'job.state' && e.data.jobId === jobId);
  assert.deepEqual(events.map((e) => e.data.state), ['queued', 'printing', 'completed']);
  assert.ok(events.every((e, i) => i === 0 || e.id > events[i - 1].id));
  // printedAt comes later, with job.printed, once the printer's buffer is seen empty
  const { printedAt: _later, ...record } = (await d.api('GET', `/jobs/${jobId}`)).body.result.content;
  assert.deepEqual(events.at(-1).data, { ...record, printedAt: null });
  ws.close(1000);
});

test('printer.status when the printer runs out of paper and when it is back, found by the background monitor while a client listens', async () => {
  const { ws } = await browserClient();
  ws.sendText(JSON.stringify({ type: 'subscribe', types: ['printer.status'], printers: [path] }));
  assert.equal((await json(ws)).type, 'subscribed');
  emulator.state.paperOut = true;
  const out = await readUntil(ws, (e) => e.data?.status === 'error');
  assert.deepEqual([out.at(-1).type, out.at(-1).data.path, out.at(-1).data.statusReasons], ['printer.status', path, ['media-empty-error']]);
  emulator.state.paperOut = false;
  const back = (await readUntil(ws, (e) => e.data?.status === 'online')).at(-1);
  assert.deepEqual([back.type, back.data.statusReasons], ['printer.status', []]);
  ws.close(1000);
});

test('while a client listens, no status probe opens a connection during a job\'s transfer', async () => {
  const { ws } = await browserClient();
  const queriesBefore = emulator.statusQueries;
  await until('the monitor probes in the background', () => emulator.statusQueries > queriesBefore + 2);
  emulator.slowBytesPerSecond = 20_000;
  const res = await d.api('POST', `/print/${path}`, { body: { content: `^XA^FD${'s'.repeat(60_000)}^FS^XZ`, contentType: 'zpl' } });
  emulator.slowBytesPerSecond = 0;
  assert.equal(res.status, 200);
  assert.equal(emulator.queriesDuringJobs, 0);
  ws.close(1000);
});

test('reconnecting with since after missing 50 events gets exactly those 50, then live ones', async () => {
  // other events (a job.printed of an earlier job) may fall in the gap too: the replay must hold exactly what the bus emitted
  const emitted: DeviceEvent[] = [];
  const stop = d.events.subscribe((e) => emitted.push(e));
  const { ws, hello } = await browserClient();
  ws.close(1000);
  for (let i = 0; i < 50; i += 1) assert.equal((await d.api('PUT', '/settings', { body: { alias: `desk-${i}` } })).status, 200);
  const gap = emitted.filter((e) => e.id > hello.lastId);
  assert.equal(gap.filter((e) => e.type === 'device.settings').length, 50);
  const again = await browserClient({ since: hello.lastId });
  const missed: any[] = [];
  for (let i = 0; i < gap.length; i += 1) missed.push(await json(again.ws));
  assert.deepEqual(missed.map((e) => e.id), Array.from({ length: gap.length }, (_, i) => hello.lastId + 1 + i));
  assert.deepEqual(missed, JSON.parse(JSON.stringify(gap)));
  assert.ok(!JSON.stringify(missed).includes(KEY), 'no event carries a secret');
  await d.api('PUT', '/settings', { body: { alias: 'live' } });
  const live = emitted.find((e) => e.type === 'device.settings' && e.id > gap.at(-1)!.id)!;
  const next = await readUntil(again.ws, (e) => e.id === live.id);
  assert.deepEqual(next.map((e) => e.id), emitted.filter((e) => e.id > gap.at(-1)!.id && e.id <= live.id).map((e) => e.id));
  stop();
  again.ws.close(1000);
});
