// The link's own behaviour, with a fake MQTT.js client: a CONNACK refusal is state `error` with the reason and the
// link keeps retrying on the backoff schedule; each attempt is a new client whose Will carries the next epoch.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { IClientOptions, MqttClient } from 'mqtt';
import { FleetLink } from '../../src/fleet/mqtt-link';
import { FleetEpoch } from '../../src/fleet/fleet-epoch';
import { fleetTopics } from '../../src/fleet/fleet-topics';
import { silentLogger } from '../../src/log';
import type { FleetSettings } from '../../src/schemas/fleet';
import { tempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';

class FakeClient extends EventEmitter {
  handleMessage: unknown;
  ended = false;
  constructor(readonly options: IClientOptions) {
    super();
  }
  end(): this {
    this.ended = true;
    return this;
  }
}

const settings: FleetSettings = {
  enabled: true, brokerUrl: 'mqtts://127.0.0.1:1', deviceId: 'dev-x', topicPrefix: 'printproxy/v1', username: null, password: null,
  ca: null, cert: null, key: null, keepaliveSec: 30, sessionExpirySec: 3600, inlineMaxBytes: 131072,
};

test('a CONNACK refusal puts the link in error with the reason; it retries with a new client and the same next epoch', async () => {
  const clients: FakeClient[] = [];
  const connect = (_url: string, options: IClientOptions) => {
    const client = new FakeClient(options);
    clients.push(client);
    return client as unknown as MqttClient;
  };
  const link = new FleetLink(
    { connect, epoch: new FleetEpoch(tempDir('fleet-epoch')), random: () => 0, now: Date.now, logger: silentLogger, bootId: 'b', version: 'v', startedAt: 't' },
    settings, fleetTopics(settings.topicPrefix, settings.deviceId), { onMessage: () => undefined, onUp: () => undefined },
  );
  link.start();
  assert.equal(clients.length, 1);
  const options = clients[0].options;
  assert.equal(options.clientId, 'dev-x');
  assert.equal(options.clean, false);
  assert.equal(options.reconnectPeriod, 0);
  assert.equal(options.protocolVersion, 5);
  assert.ok((options.properties?.maximumPacketSize ?? 0) >= 4 * settings.inlineMaxBytes);
  assert.equal(options.properties?.sessionExpiryInterval, 3600);
  assert.deepEqual(JSON.parse(String(options.will?.payload)), { online: false, epoch: 1 });
  assert.equal(options.will?.retain, true);
  const refusal = Object.assign(new Error('Connection refused: Not authorized'), { code: 135 });
  clients[0].emit('error', refusal);
  clients[0].emit('close');
  assert.equal(link.state, 'error');
  assert.equal(link.lastError, 'Connection refused: Not authorized');
  assert.ok(clients[0].ended, 'the refused client is ended, its store with it');
  await until('a second attempt', () => clients.length === 2);
  assert.deepEqual(JSON.parse(String(clients[1].options.will?.payload)), { online: false, epoch: 1 }, 'a failed attempt does not use up an epoch');
  await link.stop();
});
