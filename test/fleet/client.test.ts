// The fleet-side library against a real Mosquitto and a small responder written here (a device as fleet.md describes it).
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import mqtt, { type MqttClient } from 'mqtt';
import { startBroker, type Broker } from '../fixtures/mosquitto-broker';
import { FleetClient, FleetClientError, type FleetEvent } from '../../src/fleet/client/index';
import { until } from '../helpers/until';
import { startDeviceStub, type StubRequest } from '../fixtures/fleet-device-stub';

let broker: Broker;
const closers: Array<() => Promise<unknown>> = [];

before(async () => {
  broker = await startBroker();
});
after(async () => {
  for (const close of closers.reverse()) await close();
  await broker.stop();
});

async function fleetClient(): Promise<FleetClient> {
  const id = broker.cert('fleet');
  const client = await FleetClient.connect({ url: broker.url, ca: broker.ca, cert: id.cert, key: id.key });
  closers.push(() => client.close());
  return client;
}

async function deviceConnection(deviceId: string): Promise<MqttClient> {
  const id = broker.cert(deviceId);
  const client = await mqtt.connectAsync(broker.url, { protocolVersion: 5, ca: broker.ca, cert: id.cert, key: id.key, clientId: deviceId, reconnectPeriod: 0 });
  closers.push(() => client.endAsync(true));
  return client;
}

/** A stub device answering 200 after ignoring the first `ignore` requests; returns what it received. */
async function responder(deviceId: string, ignore = 0, useResponseTopic = true): Promise<StubRequest[]> {
  const stub = await startDeviceStub(broker, deviceId, { ignore, useResponseTopic });
  closers.push(() => stub.close());
  return stub.requests;
}

async function retained(topic: string, value: unknown): Promise<void> {
  const id = broker.cert('fleet');
  const client = await mqtt.connectAsync(broker.url, { protocolVersion: 5, ca: broker.ca, cert: id.cert, key: id.key, reconnectPeriod: 0 });
  await client.publishAsync(topic, value === null ? '' : JSON.stringify(value), { qos: 1, retain: true });
  await client.endAsync();
}

test('devices are listed from their retained status as soon as connect resolves', async () => {
  await retained('printproxy/v1/st-a/status', { online: true, epoch: 4, bootId: 'b1', version: '0.1.0', since: '2026-11-26T10:00:00Z' });
  await retained('printproxy/v1/st-b/status', { online: false, epoch: 2 });
  const fleet = await fleetClient();
  const byId = new Map(fleet.devices().map((d) => [d.deviceId, d]));
  assert.equal(byId.get('st-a')?.online, true);
  assert.equal(byId.get('st-a')?.epoch, 4);
  assert.equal(byId.get('st-a')?.version, '0.1.0');
  assert.equal(byId.get('st-b')?.online, false);
});

test('a death older than the current birth is ignored; one of the same epoch takes the device offline', async () => {
  const fleet = await fleetClient();
  const changes: string[] = [];
  fleet.onDevice((d) => changes.push('removed' in d ? `${d.deviceId} removed` : `${d.deviceId} ${d.online} ${d.epoch}`));
  await retained('printproxy/v1/st-c/status', { online: true, epoch: 7, bootId: 'b2', version: '0.1.0', since: '2026-11-26T10:00:00Z' });
  await retained('printproxy/v1/st-c/status', { online: false, epoch: 6 });
  await retained('printproxy/v1/st-c/status', { online: false, epoch: 7 });
  await until('the death of epoch 7 seen', () => changes.includes('st-c false 7'));
  assert.deepEqual(changes, ['st-c true 7', 'st-c false 7']);
  assert.equal(fleet.device('st-c')?.bootId, 'b2');
  await retained('printproxy/v1/st-c/status', null);
  await until('the cleared status removes the device', () => fleet.device('st-c') === undefined);
});

test('a request is answered on the response topic, matched by its correlation data', async () => {
  const seen = await responder('rq-a');
  const fleet = await fleetClient();
  const answer = await fleet.request('rq-a', { method: 'GET', path: '/printers' }, { deadlineMs: 10_000 });
  assert.equal(answer.status, 200);
  assert.deepEqual(answer.body, { result: { path: '/printers' } });
  assert.equal(seen[0].responseTopic, `printproxy/v1/rq-a/res/${fleet.clientId}`);
});

test('an answer on P/res without correlation data is matched by the request id', async () => {
  await responder('rq-b', 0, false);
  const fleet = await fleetClient();
  const answer = await fleet.request('rq-b', { method: 'GET', path: '/status' }, { deadlineMs: 10_000 });
  assert.deepEqual(answer.body, { result: { path: '/status' } });
});

test('a retry sends the same request id and idempotency key again', async () => {
  const seen = await responder('rq-c', 1);
  const fleet = await fleetClient();
  const request = { method: 'POST' as const, path: '/print/tag_x', headers: { 'Idempotency-Key': 'order-1' }, body: { content: '^XA^XZ', contentType: 'zpl' } };
  const answer = await fleet.request('rq-c', request, { deadlineMs: 3000, retries: 2 });
  assert.equal(answer.status, 200);
  assert.ok(seen.length >= 2);
  assert.equal(seen[1].id, seen[0].id);
  assert.equal(seen[1].headers['Idempotency-Key'], 'order-1');
});

test('no answer within the deadline rejects with FLEET_TIMEOUT naming the device and path', async () => {
  const fleet = await fleetClient();
  await assert.rejects(fleet.request('nobody', { method: 'GET', path: '/jobs/j1' }, { deadlineMs: 300, retries: 1 }), (err: unknown) => {
    assert.ok(err instanceof FleetClientError);
    assert.equal(err.code, 'FLEET_TIMEOUT');
    assert.match(err.message, /nobody.*GET \/jobs\/j1/);
    return true;
  });
});

test('events of one device, and of all devices', async () => {
  const fleet = await fleetClient();
  const one: FleetEvent[] = [];
  const all: FleetEvent[] = [];
  const stopOne = await fleet.events('ev-a', (e) => one.push(e));
  await fleet.events(null, (e) => all.push(e));
  const a = await deviceConnection('ev-a');
  const b = await deviceConnection('ev-b');
  await b.publishAsync('printproxy/v1/ev-b/events/job.state', JSON.stringify({ id: 1, type: 'job.state', bootId: 'x' }), { qos: 1 });
  await a.publishAsync('printproxy/v1/ev-a/events/job.state', JSON.stringify({ id: 5, type: 'job.state', bootId: 'y' }), { qos: 1 });
  await until('both events seen by the all-devices listener', () => all.length === 2);
  assert.deepEqual(one.map((e) => [e.deviceId, e.type, e.event.id]), [['ev-a', 'job.state', 5]]);
  assert.deepEqual(all.map((e) => e.deviceId).sort(), ['ev-a', 'ev-b']);
  await stopOne();
  await a.publishAsync('printproxy/v1/ev-a/events/reset', JSON.stringify({ type: 'reset' }), { qos: 1 });
  await until('the reset seen by the all-devices listener', () => all.length === 3);
  assert.equal(one.length, 1);
});

test('close fails a waiting request with FLEET_CLOSED', async () => {
  const fleet = await fleetClient();
  const rejected = assert.rejects(fleet.request('nobody-2', { method: 'GET', path: '/status' }, { deadlineMs: 60_000 }), { code: 'FLEET_CLOSED' });
  await fleet.close();
  await rejected;
});

test('connect resolves only after every retained status has arrived, even for hundreds of devices', async () => {
  const id = broker.cert('fleet');
  const publisher = await mqtt.connectAsync(broker.url, { protocolVersion: 5, ca: broker.ca, cert: id.cert, key: id.key, reconnectPeriod: 0 });
  const ids = Array.from({ length: 300 }, (_, i) => `many-${i}`);
  await Promise.all(ids.map((d, i) => publisher.publishAsync(`printproxy/v1/${d}/status`, JSON.stringify({ online: true, epoch: i + 1, bootId: 'b', version: '0.1.0', since: '2026-11-26T10:00:00Z' }), { qos: 1, retain: true })));
  await publisher.endAsync();
  const fleet = await fleetClient();
  const listed = new Set(fleet.devices().map((d) => d.deviceId));
  assert.deepEqual(ids.filter((d) => !listed.has(d)), []);
  assert.equal(fleet.device('many-299')?.epoch, 300);
});
