// GET /status `fleet` and its warnings, and /fleet in openapi.json, on a real daemon.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { until } from '../helpers/until';

let daemon: DaemonHandle;

before(async () => {
  daemon = await startDaemon();
});
after(async () => {
  await daemon?.stop();
});

const status = async () => (await daemon.api('GET', '/status')).body.result.content;

test('fleet is disabled until configured', async () => {
  assert.deepEqual((await status()).fleet, { state: 'disabled', brokerUrl: null, connectedSince: null, lastError: null, pendingEvents: 0 });
});

test('a plain mqtt:// broker is a warning; an unreachable one leaves the state connecting with the error', async () => {
  const put = await daemon.api('PUT', '/fleet', { body: { enabled: true, brokerUrl: 'mqtt://127.0.0.1:1' } });
  assert.equal(put.status, 200);
  const s = await status();
  assert.equal(s.fleet.brokerUrl, 'mqtt://127.0.0.1:1');
  assert.ok(s.warnings.some((w: string) => w.includes('plain mqtt://')), JSON.stringify(s.warnings));
  await until('the connection error is shown', async () => (await status()).fleet.lastError !== null);
  assert.equal((await status()).fleet.state, 'connecting');
  await daemon.api('PUT', '/fleet', { body: { enabled: false, brokerUrl: null } });
  assert.equal((await status()).fleet.state, 'disabled');
  assert.ok(!(await status()).warnings.some((w: string) => w.includes('plain mqtt://')));
});

test('openapi.json documents GET/PUT /fleet and fleet in GET /status', async () => {
  const doc = (await daemon.api('GET', '/openapi.json')).body;
  assert.ok(doc.paths['/fleet'].get);
  assert.ok(doc.paths['/fleet'].put.requestBody);
  assert.match(JSON.stringify(doc.paths['/status']), /pendingEvents/);
});
