// While the broker is away: events go to the on-disk outbox (pendingEvents in GET /status) and are published in id order
// on reconnect; a wait: true job accepted before a device restart is answered when it ends after it; a test print over
// MQTT is spooled and answered once; a new deviceId clears the old retained status and printers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBroker, type Broker } from '../fixtures/mosquitto-broker';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import type { DaemonHandle } from '../helpers/daemon-process';
import { until, valueWithin } from '../helpers/until';
import { addZplPrinter, fleetSettings, printedMarkers, record, startDevice, type Recorder } from './bridge-harness';

const DEVICE = 'dev-o';
const P = `printproxy/v1/${DEVICE}`;
let broker: Broker;
let emulator: ZplPrinterEmulator;
let daemon: DaemonHandle;
let fleet: Recorder;
let printer: string;

before(async () => {
  broker = await startBroker();
  emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  fleet = await record(broker);
  daemon = await startDevice(broker, DEVICE);
  printer = await addZplPrinter(daemon, emulator, port);
});
after(async () => {
  await daemon?.stop();
  await fleet?.end();
  await emulator?.stop();
  await broker?.stop();
});

const fleetStatus = async () => (await daemon.api('GET', '/status')).body.result.content.fleet;

test('events emitted while the broker is down are kept on disk and published in id order on reconnect', async () => {
  // the recorder's session must be in the broker's saved state before the kill
  await broker.restart();
  await until('recorder back', () => fleet.client.connected, 20_000);
  await until('fleet connected', async () => (await fleetStatus()).state === 'connected', 60_000);
  await broker.kill();
  await until('fleet not connected', async () => (await fleetStatus()).state !== 'connected', 20_000);
  const printed = await daemon.api('POST', `/print/${printer}`, { body: { contentType: 'zpl', content: '^XA^FDoffline^FS^XZ' } });
  assert.equal(printed.status, 200);
  const jobId = printed.body.result.content.jobId;
  const down = await fleetStatus();
  assert.ok(down.pendingEvents >= 3, `queued, printing and completed wait in the outbox: ${JSON.stringify(down)}`);
  await broker.restart();
  await until('fleet connected again', async () => (await fleetStatus()).state === 'connected', 60_000);
  await until('completed published', () => fleet.json(`${P}/events/job.state`).some((e) => e.data.jobId === jobId && e.data.state === 'completed'), 20_000);
  const states = fleet.json(`${P}/events/job.state`).filter((e) => e.data.jobId === jobId);
  assert.deepEqual(states.map((e) => e.data.state), ['queued', 'printing', 'completed']);
  await until('outbox empty', async () => (await fleetStatus()).pendingEvents === 0);
});
