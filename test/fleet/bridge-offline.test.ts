// While the broker is away: events go to the on-disk outbox (pendingEvents in GET /status) and are published in id order
// on reconnect; a wait: true job accepted before a device restart is answered when it ends after it; a test print over
// MQTT is spooled and answered once; a new deviceId clears the old retained status and printers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Broker } from '../fixtures/mosquitto-broker';
import type { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import type { DaemonHandle } from '../helpers/daemon-process';
import { until, valueWithin } from '../helpers/until';
import { fleetSettings, printedMarkers, record, startDevice, startRecorderBench, stopRecorderBench, type Recorder } from './bridge-harness';

const DEVICE = 'dev-o';
const P = `printproxy/v1/${DEVICE}`;
let broker: Broker;
let emulator: ZplPrinterEmulator;
let daemon: DaemonHandle;
let fleet: Recorder;
let printer: string;

before(async () => {
  ({ broker, emulator, fleet, daemon, printer } = await startRecorderBench(DEVICE));
});
after(() => stopRecorderBench({ daemon, fleet, emulator, broker }));

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

test('a test print over MQTT is spooled, answered once, and the same id again prints nothing more', async () => {
  const before = emulator.jobs().length;
  const request = JSON.stringify({ id: 'test-print-1', method: 'POST', path: `/print/${printer}/test` });
  await fleet.client.publishAsync(`${P}/req`, request, { qos: 1 });
  const answer = await valueWithin('test print answer', 20_000, () => fleet.json(`${P}/res`).find((a) => a.id === 'test-print-1'));
  assert.equal(answer.status, 200);
  assert.equal(answer.body.result.content, null);
  await fleet.client.publishAsync(`${P}/req`, request, { qos: 1 });
  await until('second answer', () => fleet.json(`${P}/res`).filter((a) => a.id === 'test-print-1').length === 2, 20_000);
  assert.deepEqual(fleet.json(`${P}/res`).filter((a) => a.id === 'test-print-1')[1], answer);
  assert.equal(emulator.jobs().length, before + 1);
});

test('a wait: true job accepted before a device restart is answered when it ends after the restart, printed once', async () => {
  emulator.state.paperOut = true;
  await fleet.client.publishAsync(`${P}/req`, JSON.stringify({ id: 'held-1', method: 'POST', path: `/print/${printer}`, body: { contentType: 'zpl', content: '^XA^FDheld^FS^XZ' } }), { qos: 1 });
  const dataDir = daemon.dataDir;
  // PUBACK means the job and its key are on disk; a barrier request behind it proves the device took it
  await fleet.client.publishAsync(`${P}/req`, JSON.stringify({ id: 'held-barrier', method: 'GET', path: '/status' }), { qos: 1 });
  await valueWithin('barrier answer', 20_000, () => fleet.json(`${P}/res`).find((a) => a.id === 'held-barrier'));
  assert.equal(fleet.json(`${P}/res`).find((a) => a.id === 'held-1'), undefined, 'not answered while the job waits');
  await daemon.stop('SIGKILL');
  daemon = await startDevice(broker, DEVICE, { dataDir, join: false });
  emulator.state.paperOut = false;
  const answer = await valueWithin('answer after the restart', 60_000, () => fleet.json(`${P}/res`).find((a) => a.id === 'held-1'));
  assert.equal(answer.status, 200);
  assert.equal(answer.body.result.content.state, 'completed');
  assert.equal(printedMarkers(emulator).get('held'), 1);
});

test('a new deviceId first clears the old retained status and printers', async () => {
  const put = await daemon.api('PUT', '/fleet', { body: fleetSettings(broker, 'dev-o2') });
  assert.equal(put.status, 200);
  await until('old status cleared', () => fleet.messages.some((m) => m.topic === `${P}/status` && m.text === ''), 20_000);
  await until('old printers cleared', () => fleet.messages.some((m) => m.topic === `${P}/printers` && m.text === ''), 20_000);
  await until('new birth', () => fleet.json('printproxy/v1/dev-o2/status').some((s) => s.online === true), 30_000);
  // a newcomer gets the retained messages before a message published after its subscription
  const late = await record(broker);
  try {
    await late.client.publishAsync('printproxy/barrier', 'b', { qos: 1 });
    await until('barrier', () => late.messages.some((m) => m.topic === 'printproxy/barrier'));
    assert.deepEqual(late.messages.filter((m) => m.topic.startsWith(`${P}/`)), [], 'nothing retained under the old id');
    assert.ok(late.messages.some((m) => m.topic === 'printproxy/v1/dev-o2/status' && m.retain), 'the new birth is retained');
  } finally {
    await late.end();
  }
});
