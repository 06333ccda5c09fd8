// The setup file against the real settings stores in a temporary data dir: applied whole and removed, refused whole
// (and removed) when any field is bad, and undone when a write fails part-way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FleetSettingsStore } from '../../src/fleet/fleet-settings-store';
import { silentLogger } from '../../src/log';
import { SettingsStore } from '../../src/settings/settings-store';
import { HostnameFile } from '../../src/system/hostname-file';
import { applySetupFile } from '../../src/system/setup-file';
import { tempDir } from '../helpers/temp-dir';

const FLEET = { enabled: true, brokerUrl: 'mqtts://broker.example:8883', topicPrefix: 'acme/printers', keepaliveSec: 60 };
const GOOD = { apiKey: 'provisioned-key-0123456789', deviceId: 'wh01', hostname: 'printer-dock-3', fleet: FLEET };

/** A data dir with stores as the daemon opens them, and a setup file path inside it. */
function device() {
  const dataDir = tempDir('setup-file');
  const settings = new SettingsStore({ dataDir, logger: silentLogger });
  const fleet = new FleetSettingsStore(join(dataDir, 'fleet'), () => settings.value.deviceId);
  const hostnameFile = new HostnameFile(dataDir);
  const path = join(dataDir, 'setup.json');
  const apply = () => applySetupFile(path, { settings, fleet, hostnameFile, logger: silentLogger });
  /** What a restart would read back from disk. */
  const reopened = () => {
    const s = new SettingsStore({ dataDir, logger: silentLogger });
    return { settings: s.value, fleet: new FleetSettingsStore(join(dataDir, 'fleet'), () => s.value.deviceId).value };
  };
  return { dataDir, settings, fleet, hostnameFile, path, apply, reopened };
}

test('no setup file: nothing happens', async () => {
  const d = device();
  assert.deepEqual(await d.apply(), { applied: null, warnings: [] });
  assert.equal(d.settings.claimed, false);
});

test('a good file is applied whole, on disk and in memory, then removed; its hostname also goes to DATA/hostname', async () => {
  const d = device();
  await d.settings.persist();
  writeFileSync(d.path, JSON.stringify(GOOD));
  const outcome = await d.apply();
  assert.deepEqual(outcome, { applied: ['apiKey', 'deviceId', 'hostname', 'fleet'], warnings: [] });
  assert.equal(existsSync(d.path), false, 'the file is removed');
  assert.equal(d.settings.value.apiKey, GOOD.apiKey);
  assert.equal(d.settings.claimed, true);
  assert.equal(d.fleet.value.brokerUrl, FLEET.brokerUrl);
  assert.equal(d.fleet.value.deviceId, 'wh01', "the fleet's deviceId follows the device's");
  const back = d.reopened();
  assert.deepEqual([back.settings.apiKey, back.settings.deviceId, back.settings.hostname], [GOOD.apiKey, 'wh01', 'printer-dock-3']);
  assert.deepEqual([back.fleet.enabled, back.fleet.topicPrefix, back.fleet.keepaliveSec, back.fleet.deviceId], [true, 'acme/printers', 60, 'wh01']);
  assert.equal(readFileSync(join(d.dataDir, 'hostname'), 'utf8'), 'printer-dock-3\n');
});

test("the file's key replaces a key the device already has", async () => {
  const d = device();
  await d.settings.claim('first-key-0123456789abcdef');
  writeFileSync(d.path, JSON.stringify({ apiKey: GOOD.apiKey }));
  assert.deepEqual((await d.apply()).applied, ['apiKey']);
  assert.equal(d.reopened().settings.apiKey, GOOD.apiKey);
});

test('a bad file changes nothing, is removed, and its warning names the bad field', async () => {
  const cases: Array<[string, string | object, RegExp]> = [
    ['not JSON', '{"apiKey": "provisioned-key-0123456789",', /^setup file not applied: it is not valid JSON/],
    ['not an object', '["apiKey"]', /^setup file not applied: it must be a JSON object$/],
    ['an unknown field', { ...GOOD, wifi: { ssid: 'x' } }, /^setup file not applied: wifi is not an allowed field$/],
    ['a short key', { ...GOOD, apiKey: 'short' }, /^setup file not applied: apiKey must be 16 to 256 visible ASCII characters/],
    ['a device id the device cannot have', { ...GOOD, deviceId: 'WH-01' }, /^setup file not applied: deviceId must be 4 characters of a-z and 0-9$/],
    ['a host name with a dot', { ...GOOD, hostname: 'dock.example.com' }, /^setup file not applied: hostname must be one DNS label/],
    ['a fleet field of the wrong type', { ...GOOD, fleet: { ...FLEET, keepaliveSec: '60' } }, /^setup file not applied: fleet.keepaliveSec must be an integer >= 5 and <= 1200$/],
    ['an unknown fleet field', { ...GOOD, fleet: { ...FLEET, port: 8883 } }, /^setup file not applied: fleet.port is not an allowed field$/],
    ['a fleet PUT /fleet would refuse', { ...GOOD, fleet: { enabled: true, brokerUrl: null } }, /^setup file not applied: fleet: brokerUrl is required when enabled is true$/],
  ];
  for (const [name, content, warning] of cases) {
    const d = device();
    await d.settings.persist();
    const before = readFileSync(d.settings.file, 'utf8');
    writeFileSync(d.path, typeof content === 'string' ? content : JSON.stringify(content));
    const outcome = await d.apply();
    assert.equal(outcome.applied, null, name);
    assert.equal(outcome.warnings.length, 1, name);
    assert.match(outcome.warnings[0], warning, name);
    assert.equal(existsSync(d.path), false, `${name}: the file is removed`);
    assert.equal(d.settings.claimed, false, `${name}: still unclaimed`);
    assert.equal(readFileSync(d.settings.file, 'utf8'), before, `${name}: settings.json unchanged`);
    assert.equal(existsSync(join(d.dataDir, 'fleet', 'settings.json')), false, `${name}: no fleet settings written`);
    assert.equal(existsSync(join(d.dataDir, 'hostname')), false, `${name}: no hostname file`);
  }
});

test('a write that fails part-way undoes the writes made before it, keeps the file for the next start, and says so', async () => {
  const d = device();
  await d.settings.persist();
  await d.fleet.replace({ enabled: false, brokerUrl: 'mqtts://old.example' });
  const settingsBefore = readFileSync(d.settings.file, 'utf8');
  const fleetBefore = d.reopened().fleet;
  // DATA/hostname is a folder that holds a file: the last write (after settings and fleet) cannot replace it
  mkdirSync(join(d.dataDir, 'hostname'));
  writeFileSync(join(d.dataDir, 'hostname', 'in-the-way'), '');
  writeFileSync(d.path, JSON.stringify(GOOD));
  const outcome = await d.apply();
  assert.equal(outcome.applied, null);
  assert.match(outcome.warnings[0] ?? '', /^setup file not applied: the device could not store it \(.+\); it is tried again at the next start$/);
  assert.equal(existsSync(d.path), true, 'the file stays for the next start');
  assert.equal(d.settings.claimed, false, 'the key written first is undone in memory');
  assert.deepEqual(JSON.parse(readFileSync(d.settings.file, 'utf8')), JSON.parse(settingsBefore), 'and on disk');
  assert.equal(d.fleet.value.brokerUrl, 'mqtts://old.example', 'the fleet settings are undone');
  assert.deepEqual(d.reopened().fleet, fleetBefore);
});
