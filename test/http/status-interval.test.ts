// A WebSocket client can ask for printers' status sooner than the device's default probe interval (the web console
// asks for 2 s), through its auth message or the URL; never sooner than every 2 s.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until } from '../helpers/until';
import { connectWs, isSocket, type TestSocket } from './ws-test-client';

const KEY = 'inproc-key-0123456789abcdef';
let d: InProcessDaemon;
let emulator: ZplPrinterEmulator;

before(async () => {
  // a default so long that a second probe within the test can only come from the client's wish
  d = await startInProcess({ usb: () => new FakeUsbBus() }, undefined, false, false, { PRINTPROXY_MONITOR_INTERVAL_MS: '600000' });
  emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  assert.equal(added.status, 201);
});
after(async () => {
  await d.stop();
  await emulator.stop();
});

async function hello(ws: TestSocket): Promise<void> {
  const frame = await ws.next(10_000);
  assert.equal(frame.kind, 'text', JSON.stringify(frame));
  assert.equal(JSON.parse((frame as { text: string }).text).type, 'hello');
}

/** Waits for `count` more ~HS probes than were asked so far, then for the socket to close and the claim to go. */
async function probesWhile(open: () => Promise<TestSocket>, count: number): Promise<void> {
  const ws = await open();
  await hello(ws);
  const start = emulator.hostStatusAsked;
  await until(`${count} background probes`, () => emulator.hostStatusAsked - start >= count, 15_000);
  ws.close(1000);
  await ws.closed();
}

test('statusIntervalMs in the auth message: the monitor probes each printer every 2 s while that client listens', async () => {
  await probesWhile(async () => {
    const ws = await connectWs(d.httpPort, '/api/v1/events');
    assert.ok(isSocket(ws));
    ws.sendText(JSON.stringify({ type: 'auth', apiKey: KEY, types: ['printer.status'], statusIntervalMs: 2000 }));
    return ws;
  }, 2);
});

test('statusIntervalMs in the URL, below the floor: raised to 2 s, and honoured', async () => {
  await probesWhile(async () => {
    const ws = await connectWs(d.httpPort, '/api/v1/events?types=printer.status&statusIntervalMs=1', { 'x-api-key': KEY });
    assert.ok(isSocket(ws));
    return ws;
  }, 2);
});
