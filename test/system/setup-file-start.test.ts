// The setup file at the daemon's start (--setup-file): a good one claims and configures the device before the API
// answers and is gone; a bad one changes nothing, is gone too, and GET /status names the bad field until the next start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon } from '../helpers/daemon-process';
import { tempDir } from '../helpers/temp-dir';

const KEY = 'provisioned-key-0123456789';
const FLEET = { enabled: false, brokerUrl: 'mqtts://broker.example:8883', topicPrefix: 'acme/printers' };

/** A setup file with `content` in a folder of its own (as the boot script's copy under /data would be). */
function setupFile(content: unknown): string {
  const path = join(tempDir('setup'), 'printproxyd-setup.json');
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const setupWarnings = (lines: string[]) => lines.filter((line) => line.startsWith('setup file'));

test('a good setup file claims the device with its key, sets its id, host name and fleet settings, and is removed', async () => {
  const dataDir = tempDir('setup-data');
  const path = setupFile({ apiKey: KEY, deviceId: 'wh01', hostname: 'printer-dock-3', fleet: FLEET });
  const d = await startDaemon({ dataDir, apiKey: null, args: ['--setup-file', path] });
  try {
    assert.equal(existsSync(path), false, 'the file is gone');
    assert.deepEqual((await d.api('GET', '/setup', { key: null })).body.result.content, { claimed: true });
    const status = await d.api('GET', '/status', { key: KEY });
    assert.equal(status.status, 200, JSON.stringify(status.body));
    assert.equal(status.body.result.content.deviceId, 'wh01');
    assert.equal(status.body.result.content.hostname, 'printer-dock-3');
    assert.deepEqual(setupWarnings(status.body.result.content.warnings), []);
    const fleet = (await d.api('GET', '/fleet', { key: KEY })).body.result.content;
    assert.deepEqual([fleet.brokerUrl, fleet.topicPrefix, fleet.deviceId], [FLEET.brokerUrl, FLEET.topicPrefix, 'wh01']);
    assert.equal(readFileSync(join(dataDir, 'hostname'), 'utf8'), 'printer-dock-3\n', 'the boot scripts find the host name');
    assert.doesNotMatch(d.stdout(), /to set the API key|no API key is set/);
  } finally {
    await d.stop();
  }
});

test("a setup file's key replaces the key a device already has", async () => {
  const dataDir = tempDir('setup-data');
  const first = await startDaemon({ dataDir, apiKey: null });
  assert.equal((await first.api('POST', '/setup', { key: null, body: { apiKey: 'first-key-0123456789abcdef' } })).status, 201);
  await first.stop();
  const d = await startDaemon({ dataDir, apiKey: null, args: ['--setup-file', setupFile({ apiKey: KEY })] });
  try {
    assert.equal((await d.api('GET', '/status', { key: 'first-key-0123456789abcdef' })).status, 401);
    assert.equal((await d.api('GET', '/status', { key: KEY })).status, 200);
  } finally {
    await d.stop();
  }
});

test('a bad setup file is not applied, is removed, and GET /status names the bad field until the next start', async () => {
  const dataDir = tempDir('setup-data');
  const path = setupFile({ apiKey: KEY, deviceId: 'wh01', fleet: { ...FLEET, keepaliveSec: 'often' } });
  const d = await startDaemon({ dataDir, apiKey: null, args: ['--setup-file', path] });
  try {
    assert.equal(existsSync(path), false, 'the bad file is gone too');
    assert.deepEqual((await d.api('GET', '/setup', { key: null })).body.result.content, { claimed: false }, "the file's key was not applied");
    const locked = await d.api('GET', '/status', { key: KEY });
    assert.equal(locked.status, 401);
    assert.deepEqual(locked.body.result.content, { message: 'Device not set up' });
    assert.equal((await d.api('POST', '/setup', { key: null, body: { apiKey: 'claimed-key-0123456789abcdef' } })).status, 201);
    const status = (await d.api('GET', '/status', { key: 'claimed-key-0123456789abcdef' })).body.result.content;
    assert.deepEqual(setupWarnings(status.warnings), ['setup file not applied: fleet.keepaliveSec must be an integer >= 5 and <= 1200']);
    assert.notEqual(status.deviceId, 'wh01', 'nothing of the file was applied');
  } finally {
    await d.stop();
  }
  const again = await startDaemon({ dataDir, apiKey: null });
  try {
    const status = (await again.api('GET', '/status', { key: 'claimed-key-0123456789abcdef' })).body.result.content;
    assert.deepEqual(setupWarnings(status.warnings), [], 'the warning lasts until the next start');
  } finally {
    await again.stop();
  }
});

test('a setup file that is not JSON does not stop the start; the warning says so', async () => {
  const d = await startDaemon({ apiKey: 'test-key-0123456789abcdef', args: ['--setup-file', setupFile('{"apiKey": ')] });
  try {
    const status = (await d.api('GET', '/status')).body.result.content;
    assert.match(setupWarnings(status.warnings).join('\n'), /^setup file not applied: it is not valid JSON \(/);
  } finally {
    await d.stop();
  }
});
