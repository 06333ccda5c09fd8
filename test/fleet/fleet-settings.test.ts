// GET/PUT /fleet through the route table: defaults, validation naming the field, masked secrets kept when sent back,
// 507 with nothing changed when the file cannot be written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ApiDispatcher } from '../../src/http/api-dispatch';
import { fleetRoutes } from '../../src/http/routes/fleet';
import { FleetSettingsStore } from '../../src/fleet/fleet-settings-store';
import { silentLogger } from '../../src/log';
import { tempDir } from '../helpers/temp-dir';

function setup(dir = tempDir('fleet-settings')) {
  const store = new FleetSettingsStore(join(dir, 'fleet'), () => 'ab12');
  const applied: unknown[] = [];
  const dispatcher = new ApiDispatcher(fleetRoutes({ settings: store, apply: async (prev) => void applied.push(prev), changed: () => undefined }), silentLogger);
  const call = (method: string, body?: unknown) => dispatcher.execute(dispatcher.resolve(method, '/fleet'), { headers: {}, body, remoteAddress: 't', signal: new AbortController().signal }) as Promise<{ status: number; body: any }>;
  return { store, call, applied, dir };
}

const full = { enabled: true, brokerUrl: 'mqtts://broker.example:8883', key: 'KEY', password: 'PW', username: 'u' };

test('defaults: disabled, the device id, printproxy/v1, 30 s, 3600 s, 131072', async () => {
  const { call } = setup();
  const got = await call('GET');
  assert.deepEqual(got.body.result.content, { enabled: false, brokerUrl: null, deviceId: 'ab12', topicPrefix: 'printproxy/v1', username: null, password: null, ca: null, cert: null, key: null, keepaliveSec: 30, sessionExpirySec: 3600, inlineMaxBytes: 131072 });
});

test('PUT validates (400 naming the field), stores, masks, applies, and keeps masked secrets', async () => {
  const { call, applied, store } = setup();
  for (const [body, field] of [[{ ...full, keepaliveSec: 2 }, 'keepaliveSec'], [{ ...full, deviceId: 'AB' }, 'deviceId'], [{ ...full, topicPrefix: 'a/b/c/d' }, 'topicPrefix'], [{ ...full, brokerUrl: 'http://x' }, 'brokerUrl'], [{ ...full, inlineMaxBytes: 100 }, 'inlineMaxBytes']] as const) {
    const bad = await call('PUT', body);
    assert.equal(bad.status, 400, field);
    assert.match(bad.body.result.content.message, new RegExp(`^${field}`));
  }
  const put = await call('PUT', full);
  assert.equal(put.status, 200);
  assert.equal(put.body.result.content.key, '********');
  assert.equal(put.body.result.content.password, '********');
  assert.equal(applied.length, 1);
  await call('PUT', { ...full, key: '********', password: '********', keepaliveSec: 60 });
  assert.equal(store.value.key, 'KEY');
  assert.equal(store.value.password, 'PW');
  assert.equal(store.value.keepaliveSec, 60);
});

test('the settings survive a restart', async () => {
  const { call, dir } = setup();
  await call('PUT', { ...full, deviceId: 'dock-7' });
  const again = setup(dir);
  assert.equal(again.store.value.deviceId, 'dock-7');
  assert.equal(again.store.value.key, 'KEY');
});

test('507 when the settings cannot be stored, and nothing changes', async () => {
  const { call, store, dir } = setup();
  // a folder where the file goes: the rename into place fails
  mkdirSync(join(dir, 'fleet', 'settings.json'));
  const put = await call('PUT', full);
  assert.equal(put.status, 507);
  assert.equal(store.value.enabled, false);
  rmSync(join(dir, 'fleet', 'settings.json'), { recursive: true });
});
