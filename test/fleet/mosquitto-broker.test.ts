// The broker fixture's ACL holds: a device certificate writes only under its own prefix and reads only its own req.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import mqtt, { type MqttClient, type IClientOptions } from 'mqtt';
import { startBroker, type Broker } from '../fixtures/mosquitto-broker';

let broker: Broker;
const clients: MqttClient[] = [];

before(async () => {
  broker = await startBroker();
});
after(async () => {
  await Promise.all(clients.map((c) => c.endAsync(true)));
  await broker.stop();
});

async function connect(cn: string): Promise<MqttClient> {
  const id = broker.cert(cn);
  const opts: IClientOptions = { protocolVersion: 5, ca: broker.ca, cert: id.cert, key: id.key, clientId: `${cn}-t`, reconnectPeriod: 0 };
  const client = await mqtt.connectAsync(broker.url, opts);
  clients.push(client);
  return client;
}

/** Resolves with the first message whose topic matches. */
function next(client: MqttClient, topic: string, seen: string[]): Promise<string> {
  return new Promise((resolve) => {
    client.on('message', (t, payload) => {
      seen.push(`${t} ${payload.toString()}`);
      if (t === topic) resolve(payload.toString());
    });
  });
}

test('a device cannot publish under another device\'s prefix (req or res)', async () => {
  const fleet = await connect('fleet');
  await fleet.subscribeAsync('printproxy/#', { qos: 1 });
  const seen: string[] = [];
  const marker = next(fleet, 'printproxy/v1/dev-a/res', seen);
  const devA = await connect('dev-a');
  await assert.rejects(devA.publishAsync('printproxy/v1/dev-b/req', 'forged-req', { qos: 1 }), { code: 135 });
  await assert.rejects(devA.publishAsync('printproxy/v1/dev-b/res', 'forged-res', { qos: 1 }), { code: 135 });
  await devA.publishAsync('printproxy/v1/dev-a/res', 'own', { qos: 1 });
  assert.equal(await marker, 'own');
  assert.deepEqual(seen.filter((s) => s.includes('forged')), []);
});

test('a device reads its own req, not another device\'s', async () => {
  const devA = await connect('dev-a');
  const granted = await devA.subscribeAsync(['printproxy/v1/dev-b/req', 'printproxy/v1/dev-a/req'], { qos: 1 });
  // Mosquitto 2.0 grants the subscription and checks `read` on each delivery instead
  assert.equal(granted.length, 2);
  const seen: string[] = [];
  const own = next(devA, 'printproxy/v1/dev-a/req', seen);
  const fleet = await connect('fleet');
  await fleet.publishAsync('printproxy/v1/dev-b/req', 'not-for-a', { qos: 1 });
  await fleet.publishAsync('printproxy/v1/dev-a/req', 'for-a', { qos: 1 });
  assert.equal(await own, 'for-a');
  assert.deepEqual(seen.filter((s) => s.includes('not-for-a')), []);
});

test('kill and restart keep the port and what was persisted', async () => {
  const fleet = await connect('fleet');
  await fleet.publishAsync('printproxy/v1/dev-c/status', 'retained-1', { qos: 1, retain: true });
  await broker.restart();
  const again = await connect('fleet');
  const seen: string[] = [];
  const got = next(again, 'printproxy/v1/dev-c/status', seen);
  await again.subscribeAsync('printproxy/v1/dev-c/status', { qos: 1 });
  assert.equal(await got, 'retained-1');
  await broker.kill();
  await broker.restart();
  const third = await connect('fleet');
  await third.subscribeAsync('printproxy/v1/dev-c/status', { qos: 1 });
});
