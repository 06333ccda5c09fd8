// The event bus seen from outside the spooler: job states in order, printer list changes, status changes, settings names.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeviceEvent } from '../../src/events/event-bus';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until } from '../helpers/until';

let d: InProcessDaemon;
let emulator: ZplPrinterEmulator;
let port: number;
const seen: DeviceEvent[] = [];

before(async () => {
  d = await startInProcess({ usb: () => new FakeUsbBus() });
  d.events.subscribe((event) => seen.push(event));
  emulator = new ZplPrinterEmulator();
  port = await emulator.start();
});
after(async () => {
  await d.stop();
  await emulator.stop();
});

const of = (type: string) => seen.filter((e) => e.type === type);

test('events are numbered one by one; a job goes queued → printing → completed; printer and settings changes are events', async () => {
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  const path = added.body.result.content.path;
  await until('printer.added', () => of('printer.added').some((e) => (e.data as { path: string }).path === path));
  const printed = await d.api('POST', `/print/${path}`, { body: { content: '^XA^FDhi^FS^XZ', contentType: 'zpl' } });
  assert.equal(printed.status, 200);
  const jobId = printed.body.result.content.jobId;
  const states = of('job.state').filter((e) => (e.data as { jobId: string }).jobId === jobId).map((e) => (e.data as { state: string }).state);
  assert.deepEqual(states, ['queued', 'printing', 'completed']);
  await d.api('PATCH', `/printers/${path}`, { body: { tags: ['dock'] } });
  await until('printer.updated with the tag', () => of('printer.updated').some((e) => (e.data as { tags: string[] }).tags?.includes('dock')));
  await d.api('PUT', '/settings', { body: { alias: 'front desk' } });
  await until('device.settings', () => of('device.settings').length > 0);
  assert.deepEqual(of('device.settings').at(-1)!.data, { changed: ['alias'] });
  emulator.state.paperOut = true;
  await until('printer.status error', async () => {
    await d.api('GET', `/printers/${path}`);
    return of('printer.status').some((e) => (e.data as { status: string }).status === 'error');
  });
  assert.deepEqual((of('printer.status').at(-1)!.data as { statusReasons: string[] }).statusReasons, ['media-empty-error']);
  emulator.state.paperOut = false;
  await d.api('DELETE', `/printers/${path}`);
  await until('printer.removed', () => of('printer.removed').some((e) => (e.data as { path: string }).path === path));
  assert.deepEqual(seen.map((e) => e.id), seen.map((_, i) => seen[0].id + i), 'ids increase by one');
  assert.ok(seen.every((e) => !JSON.stringify(e).includes('inproc-key')), 'no event carries the API key');
});
