// The events WebSocket against the real daemon: a new API key closes the sockets the old one opened (4401), and a browser
// upgrade from an origin that allowedOrigins does not allow is refused (403), the device's own pages always allowed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { connectWs, isSocket, nextJson, openWs, type TestSocket } from './ws-test-client';

let d: DaemonHandle;
/** The key in force (the first test rotates it). */
let currentKey = '';

before(async () => {
  d = await startDaemon();
  currentKey = d.apiKey;
});
after(async () => {
  await d.stop();
});

const open = (headers: Record<string, string>): Promise<TestSocket> => openWs(d.port, '/api/v1/events', headers);
const json = (ws: TestSocket): Promise<any> => nextJson(ws);

test('a new API key closes the sockets the old key opened with 4401; one opened with the new key goes on receiving events', async () => {
  const byHeader = await open({ 'X-API-Key': d.apiKey });
  assert.equal((await json(byHeader)).type, 'hello');
  const byMessage = await open({});
  byMessage.sendText(JSON.stringify({ type: 'auth', apiKey: d.apiKey }));
  assert.equal((await json(byMessage)).type, 'hello');

  const rotated = await d.api('POST', '/settings/api-key');
  assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
  const newKey: string = rotated.body.result.content.apiKey;
  assert.equal((await byHeader.closed()).code, 4401);
  assert.equal((await byMessage.closed()).code, 4401);

  const fresh = await open({ 'X-API-Key': newKey });
  assert.equal((await json(fresh)).type, 'hello');
  assert.equal((await d.api('PUT', '/settings', { key: newKey, body: { alias: 'after rotation' } })).status, 200);
  const event = await json(fresh);
  assert.equal(event.type, 'device.settings');
  assert.deepEqual(event.data.changed, ['alias']);
  fresh.close(1000);
  currentKey = newKey;
});

test('allowedOrigins: a browser upgrade from another origin is 403, an allowed origin and the device\'s own pages open; * allows all', async () => {
  const key = { 'X-API-Key': currentKey };
  assert.equal((await d.api('PUT', '/settings', { key: currentKey, body: { allowedOrigins: ['https://erp.example'] } })).status, 200);
  try {
    const refused = await connectWs(d.port, '/api/v1/events', { ...key, Origin: 'https://evil.example' });
    assert.ok(!isSocket(refused), 'the upgrade from a foreign origin was accepted');
    assert.equal(refused.status, 403);
    assert.equal(JSON.parse(refused.body).result.message, 'Forbidden');
    const refusedByMessage = await connectWs(d.port, '/api/v1/events', { Origin: 'https://evil.example' });
    assert.ok(!isSocket(refusedByMessage) && refusedByMessage.status === 403, 'a browser without the header is refused as well');
    for (const origin of ['https://erp.example', 'http://127.0.0.1']) {
      const ws = await open({ ...key, Origin: origin });
      assert.equal((await json(ws)).type, 'hello', origin);
      ws.close(1000);
    }
  } finally {
    assert.equal((await d.api('PUT', '/settings', { key: currentKey, body: { allowedOrigins: ['*'] } })).status, 200);
  }
  const any = await open({ ...key, Origin: 'https://evil.example' });
  assert.equal((await json(any)).type, 'hello');
  any.close(1000);
});
