// A broker with a small Maximum Packet Size: an answer larger than it allows is replaced by a small 413, and the
// device keeps answering.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startBroker, type Broker } from '../fixtures/mosquitto-broker';
import type { DaemonHandle } from '../helpers/daemon-process';
import { valueWithin } from '../helpers/until';
import { record, startDevice, type Recorder } from './bridge-harness';

const DEVICE = 'dev-s';
const P = `printproxy/v1/${DEVICE}`;
let broker: Broker;
let daemon: DaemonHandle;
let fleet: Recorder;

before(async () => {
  broker = await startBroker({ extraConfig: ['max_packet_size 4096'] });
  fleet = await record(broker);
  daemon = await startDevice(broker, DEVICE);
});
after(async () => {
  await daemon?.stop();
  await fleet?.end();
  await broker?.stop();
});

test('an answer larger than the broker accepts is answered 413 instead; small answers still go out', async () => {
  await fleet.client.publishAsync(`${P}/req`, JSON.stringify({ id: 'big-answer', method: 'GET', path: '/openapi.json' }), { qos: 1 });
  const big = await valueWithin('413 answer', 20_000, () => fleet.json(`${P}/res`).find((a) => a.id === 'big-answer'));
  assert.equal(big.status, 413);
  assert.match(big.body.result.content.message, /larger than the broker accepts/);
  await fleet.client.publishAsync(`${P}/req`, JSON.stringify({ id: 'small', method: 'GET', path: '/fleet' }), { qos: 1 });
  const small = await valueWithin('small answer', 20_000, () => fleet.json(`${P}/res`).find((a) => a.id === 'small'));
  assert.equal(small.status, 200);
});
