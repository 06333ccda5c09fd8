// The device side of the fleet against a real Mosquitto: a print over MQTT answered once and printed once (same id or
// same Idempotency-Key again prints nothing more), job.state events in order, 413 and 403 over MQTT (credentials, updates), the ACL.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import mqtt from 'mqtt';
import type { Broker } from '../fixtures/mosquitto-broker';
import type { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import type { DaemonHandle } from '../helpers/daemon-process';
import { until, valueWithin } from '../helpers/until';
import { printedMarkers, startRecorderBench, stopRecorderBench, type Recorder } from './bridge-harness';

const DEVICE = 'dev-a';
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

/** Publishes a request as the fleet and resolves with the first answer carrying its id. */
async function ask(request: Record<string, unknown> | string, topic = `${P}/req`): Promise<any> {
  const id = typeof request === 'string' ? null : request.id;
  const before = fleet.json(`${P}/res`).length;
  await fleet.client.publishAsync(topic, typeof request === 'string' ? request : JSON.stringify(request), { qos: 1 });
  return valueWithin(`answer to ${String(id)}`, 20_000, () => fleet.json(`${P}/res`).slice(before).find((a) => a.id === id));
}

test('a print over MQTT is answered on P/res and prints once; the same id or Idempotency-Key again prints nothing more', async () => {
  const body = { contentType: 'zpl', content: '^XA^FDonce-1^FS^XZ' };
  const first = await ask({ id: 'erp-1', method: 'POST', path: `/print/${printer}`, body });
  assert.equal(first.status, 200);
  assert.equal(first.body.status, 'success');
  assert.equal(first.body.result.module, `/print/${printer}`);
  assert.equal(first.body.result.content.state, 'completed');
  const again = await ask({ id: 'erp-1', method: 'POST', path: `/print/${printer}`, body });
  assert.deepEqual(again, first);
  const keyed = { method: 'POST', path: `/print/${printer}`, headers: { 'Idempotency-Key': 'order-5521' }, body: { ...body, content: '^XA^FDonce-2^FS^XZ' } };
  const k1 = await ask({ id: 'erp-2', ...keyed });
  const k2 = await ask({ id: 'erp-3', ...keyed });
  assert.equal(k1.status, 200);
  assert.deepEqual(k2.body, k1.body);
  assert.equal(k2.status, k1.status);
  // a GET as a barrier: the device handles requests in order
  await ask({ id: 'barrier-1', method: 'GET', path: '/status' });
  assert.equal(printedMarkers(emulator).get('once-1'), 1);
  assert.equal(printedMarkers(emulator).get('once-2'), 1);
});

test('job.state events arrive on P/events/job.state in order, ending in completed, with the bootId', async () => {
  const answer = await ask({ id: 'erp-ev', method: 'POST', path: `/print/${printer}`, body: { contentType: 'zpl', content: '^XA^FDevents^FS^XZ' } });
  const jobId = answer.body.result.content.jobId;
  await until('completed event', () => fleet.json(`${P}/events/job.state`).some((e) => e.data.jobId === jobId && e.data.state === 'completed'));
  const events = fleet.json(`${P}/events/job.state`).filter((e) => e.data.jobId === jobId);
  assert.deepEqual(events.map((e) => e.data.state), ['queued', 'printing', 'completed']);
  assert.ok(events.every((e, i) => i === 0 || e.id > events[i - 1].id), 'ids increase');
  assert.ok(events.every((e) => typeof e.bootId === 'string' && e.bootId.length > 0));
});

test('the birth is retained on P/status and the printer list on P/printers', async () => {
  const status = fleet.json(`${P}/status`).at(-1);
  assert.equal(status.online, true);
  assert.ok(status.epoch >= 1);
  assert.equal(typeof status.bootId, 'string');
  await until('printer list with the printer', () => fleet.json(`${P}/printers`).some((list) => Array.isArray(list) && list.some((p: any) => p.path === printer)));
});

test('P/printers is published again when the printer list changes', async () => {
  const added = await daemon.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: 9, protocol: 'tcp' }, content: 'zpl' } });
  assert.equal(added.status, 201);
  const path = added.body.result.content.path;
  await until('list with the new printer', () => fleet.json(`${P}/printers`).some((list) => Array.isArray(list) && list.some((p: any) => p.path === path)), 20_000);
  assert.equal((await daemon.api('DELETE', `/printers/${path}`)).status, 200);
  await until('list without it', () => {
    const last = fleet.json(`${P}/printers`).at(-1);
    return Array.isArray(last) && !last.some((p: any) => p.path === path);
  }, 20_000);
});

test('a request larger than inlineMaxBytes is answered 413 and nothing of it runs', async () => {
  const big = '^XA^FDbig^FS' + 'x'.repeat(140_000) + '^XZ';
  const answer = await ask({ id: 'big-1', method: 'POST', path: `/print/${printer}`, body: { contentType: 'zpl', content: big } });
  assert.equal(answer.status, 413);
  await ask({ id: 'barrier-2', method: 'GET', path: '/status' });
  assert.equal(printedMarkers(emulator).get('big'), undefined);
});

test('updates over MQTT: POST /system/update 403 while updates.fromFleet is off, which only HTTP turns on; reboot and rollback 403', async () => {
  const body = { url: 'https://releases.example/update-9.0.0.raucb', sha256: 'a'.repeat(64), size: 1000, version: '9.0.0' };
  const off = await ask({ id: 'upd-1', method: 'POST', path: '/system/update', body });
  assert.equal(off.status, 403);
  assert.match(off.body.result.content.message, /updates\.fromFleet is off/);
  const turnOn = await ask({ id: 'upd-2', method: 'PUT', path: '/settings/updates', body: { fromFleet: true } });
  assert.equal(turnOn.status, 403);
  assert.equal((await ask({ id: 'upd-3', method: 'POST', path: '/system/reboot' })).status, 403);
  assert.equal((await ask({ id: 'upd-4', method: 'POST', path: '/system/rollback' })).status, 403);
  assert.equal((await daemon.api('GET', '/settings')).body.result.content.updates.fromFleet, false, 'the setting is unchanged');
  assert.equal((await daemon.api('PUT', '/settings/updates', { body: { fromFleet: true } })).status, 200);
  const downgrade = await ask({ id: 'upd-5', method: 'POST', path: '/system/update', body: { ...body, allowDowngrade: true } });
  assert.equal(downgrade.status, 403);
  assert.match(downgrade.body.result.content.message, /downgrade is never allowed over MQTT/);
  assert.equal((await daemon.api('PUT', '/settings/updates', { body: { fromFleet: false } })).status, 200);
});

test('credential routes over MQTT (POST /setup too) answer 403; unknown paths 404; no id or not JSON 400 with id null', async () => {
  const key = await ask({ id: 'cred-1', method: 'POST', path: '/settings/api-key' });
  assert.equal(key.status, 403);
  const put = await ask({ id: 'cred-2', method: 'PUT', path: '/fleet', body: { enabled: false, brokerUrl: null } });
  assert.equal(put.status, 403);
  const share = await ask({ id: 'cred-3', method: 'POST', path: '/shares', body: {} });
  assert.equal(share.status, 403);
  const ext = await ask({ id: 'cred-4', method: 'PUT', path: '/extensions/settings', body: {} });
  assert.equal(ext.status, 403);
  const setup = await ask({ id: 'cred-5', method: 'POST', path: '/setup', body: { apiKey: 'from-the-broker-0123456789' } });
  assert.equal(setup.status, 403, 'the first key is never set over MQTT');
  const missing = await ask({ id: 'nf-1', method: 'GET', path: '/events' });
  assert.equal(missing.status, 404);
  const noId = await ask(JSON.stringify({ method: 'GET', path: '/status' }));
  assert.equal(noId.status, 400);
  const notJson = await ask('not json');
  assert.equal(notJson.status, 400);
  assert.equal((await daemon.api('GET', '/fleet')).body.result.content.enabled, true, 'PUT /fleet over MQTT changed nothing');
});

test('MQTT 5 responseTopic inside P/ and correlationData are honoured', async () => {
  const topic = `${P}/res/erp-client`;
  await fleet.client.publishAsync(`${P}/req`, JSON.stringify({ id: 'rt-1', method: 'GET', path: '/status' }), { qos: 1, properties: { responseTopic: topic, correlationData: Buffer.from('corr-7') } });
  const answer = await valueWithin('answer on the response topic', 20_000, () => fleet.messages.find((m) => m.topic === topic));
  assert.equal(answer.correlation, 'corr-7');
  assert.equal(JSON.parse(answer.text).status, 200);
});

test('GET /fleet masks the key; GET /status has fleet connected', async () => {
  const got = await daemon.api('GET', '/fleet');
  assert.equal(got.body.result.content.key, '********');
  assert.equal(got.body.result.content.deviceId, DEVICE);
  const status = (await daemon.api('GET', '/status')).body.result.content.fleet;
  assert.equal(status.state, 'connected');
  assert.equal(status.brokerUrl, broker.url);
  assert.equal(typeof status.connectedSince, 'string');
});

test('a device certificate cannot publish under another device\'s prefix', async () => {
  const id = broker.cert(DEVICE);
  const device = await mqtt.connectAsync(broker.url, { protocolVersion: 5, ca: broker.ca, cert: id.cert, key: id.key, clientId: `${DEVICE}-intruder`, reconnectPeriod: 0 });
  try {
    await assert.rejects(device.publishAsync('printproxy/v1/dev-b/req', '{}', { qos: 1 }), { code: 135 });
    await assert.rejects(device.publishAsync('printproxy/v1/dev-b/status', '{}', { qos: 1, retain: true }), { code: 135 });
  } finally {
    await device.endAsync(true);
  }
});

test('a clean stop publishes the death (online: false, the same epoch) before disconnecting', async () => {
  const birth = fleet.json(`${P}/status`).filter((s) => s.online === true).at(-1);
  assert.equal(await daemon.stop('SIGTERM'), 0);
  const death = await valueWithin('death', 10_000, () => fleet.json(`${P}/status`).find((s) => s.online === false));
  assert.deepEqual(death, { online: false, epoch: birth.epoch });
});
