// Claim on first visit against the real daemon: an unclaimed device refuses every keyed call with 401 "Device not set
// up" until POST /setup sets its key (201 once, 409 after); a key from PRINTPROXY_API_KEY or a data dir claims it at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, type DaemonHandle } from '../../helpers/daemon-process';
import { tempDir } from '../../helpers/temp-dir';
import { until } from '../../helpers/until';
import { connectWs, isSocket } from '../ws-test-client';

const KEY = 'claimed-key-0123456789abcdef';
const OTHER = 'another-key-0123456789abcdef';

/** The start-up lines about the key, once the last start-up line (the IPP port) is out. */
async function keyLines(d: DaemonHandle): Promise<string[]> {
  await until('the start-up lines are out', () => d.ippPort() !== null);
  return d.stdout().split('\n').filter((line) => /API key/.test(line));
}

/** A built console stand-in (its page is what `/` serves), so the start-up line names the page. */
function consoleDir(): string {
  const dir = tempDir('console');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>printproxyd</title>');
  return dir;
}

test('an unclaimed device: 401 "Device not set up" on every keyed call and the event socket, until POST /setup sets the key once', async () => {
  const dataDir = tempDir('claim');
  const d = await startDaemon({ dataDir, apiKey: null, args: ['--console-dir', consoleDir()] });
  let winner = '';
  try {
    assert.deepEqual(await keyLines(d), [`open http://127.0.0.1:${d.port}/ to set the API key`]);
    const state = await d.api('GET', '/setup', { key: null });
    assert.equal(state.status, 200);
    assert.deepEqual(state.body.result.content, { claimed: false });
    for (const [method, path, body] of [['GET', '/status'], ['GET', '/printers'], ['POST', '/printers', {}], ['POST', '/settings/api-key'], ['GET', '/no-such-route']] as const) {
      for (const key of [null, KEY]) {
        const res = await d.api(method, path, { key, body });
        assert.equal(res.status, 401, `${method} ${path}`);
        assert.equal(res.body.result.message, 'Unauthorized');
        assert.deepEqual(res.body.result.content, { message: 'Device not set up' }, `${method} ${path}`);
      }
    }
    for (const headers of [{}, { 'X-API-Key': KEY }] as Array<Record<string, string>>) {
      const socket = await connectWs(d.port, '/api/v1/events', headers);
      assert.ok(!isSocket(socket), 'the event socket is refused');
      assert.equal(socket.status, 401);
      assert.deepEqual(JSON.parse(socket.body).result.content, { message: 'Device not set up' });
    }
    assert.equal((await fetch(`${d.baseUrl}/ipp/icon.png`)).status, 200, 'the keyless IPP door is not locked');
    assert.equal((await fetch(`${d.baseUrl}/`)).status, 200, 'the console page is served');

    const short = await d.api('POST', '/setup', { key: null, body: { apiKey: 'too-short' } });
    assert.equal(short.status, 400);
    assert.match(short.body.result.content.message, /^apiKey must be 16 to 256 visible ASCII characters/);
    const claims = await Promise.all([KEY, OTHER].map((apiKey) => d.api('POST', '/setup', { key: null, body: { apiKey } })));
    assert.deepEqual(claims.map((c) => c.status).sort(), [201, 409], 'of two claims at once, one wins');
    winner = claims[0].status === 201 ? KEY : OTHER;
    const loser = winner === KEY ? OTHER : KEY;
    assert.deepEqual(claims.find((c) => c.status === 201)!.body.result.content, { claimed: true });
    const late = await d.api('POST', '/setup', { key: winner, body: { apiKey: loser } });
    assert.equal(late.status, 409);
    assert.equal(late.body.result.message, 'Device already set up');

    assert.equal((await d.api('GET', '/status', { key: winner })).status, 200);
    const wrong = await d.api('GET', '/status', { key: loser });
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body.result.content, { message: 'Missing or invalid API key' });
    assert.deepEqual((await d.api('GET', '/setup', { key: null })).body.result.content, { claimed: true });
    const socket = await connectWs(d.port, '/api/v1/events', { 'X-API-Key': winner });
    assert.ok(isSocket(socket), 'the event socket opens with the key');
    socket.close(1000);
    await socket.closed();
  } finally {
    await d.stop();
  }
  const again = await startDaemon({ dataDir, apiKey: null });
  try {
    assert.deepEqual(await keyLines(again), [], 'a device with a stored key is claimed');
    assert.equal((await again.api('POST', '/setup', { key: null, body: { apiKey: OTHER } })).status, 409);
    assert.equal((await again.api('GET', '/status', { key: winner })).status, 200, 'the key set survives a restart');
  } finally {
    await again.stop();
  }
});

test('a key from PRINTPROXY_API_KEY claims the device at once: POST /setup is 409, and no claim line is printed', async () => {
  const d = await startDaemon();
  try {
    assert.deepEqual(await keyLines(d), []);
    assert.deepEqual((await d.api('GET', '/setup', { key: null })).body.result.content, { claimed: true });
    assert.equal((await d.api('POST', '/setup', { key: null, body: { apiKey: OTHER } })).status, 409);
    assert.equal((await d.api('GET', '/status')).status, 200);
  } finally {
    await d.stop();
  }
});

test('without a console, the start-up line says to POST /api/v1/setup', async () => {
  const d = await startDaemon({ apiKey: null, args: ['--no-console'] });
  try {
    assert.deepEqual(await keyLines(d), [`no API key is set: POST http://127.0.0.1:${d.port}/api/v1/setup with {"apiKey":"…"} to set it`]);
  } finally {
    await d.stop();
  }
});
