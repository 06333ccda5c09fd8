// GET /system against the real daemon, with a fake rauc executable (--rauc) that prints real RAUC status JSON, fails, or is gone.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, type DaemonHandle } from '../../helpers/daemon-process';
import { tempDir } from '../../helpers/temp-dir';

const dir = tempDir('fake-rauc');
const rauc = join(dir, 'rauc');
const failing = join(dir, 'fail');
let d: DaemonHandle;

before(async () => {
  copyFileSync(join(__dirname, '..', '..', 'fixtures', 'rauc', 'status-awaiting-reboot.json'), join(dir, 'status.json'));
  // prints the fixture for the status arguments; fails as RAUC does without its D-Bus service while `fail` exists
  writeFileSync(
    rauc,
    `#!/bin/sh\n[ "$*" = "status --detailed --output-format=json" ] || exit 64\n` +
      `if [ -e '${failing}' ]; then echo 'Error retrieving slot status via D-Bus: error creating proxy' >&2; exit 1; fi\ncat '${dir}/status.json'\n`,
  );
  chmodSync(rauc, 0o755);
  d = await startDaemon({ args: ['--rauc', rauc] });
});

after(async () => {
  await d.stop();
});

test('answers the booted slot and each root slot as RAUC reports them, with the key only', async () => {
  assert.equal((await d.api('GET', '/system', { key: null })).status, 401);
  const res = await d.api('GET', '/system');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.result.module, '/system');
  assert.deepEqual(res.body.result.content, {
    bootSlot: 'A',
    slots: [
      { name: 'rootfs.0', bootname: 'A', state: 'booted', version: '0.1.0', installedAt: '2026-11-02T10:15:00Z', good: true },
      { name: 'rootfs.1', bootname: 'B', state: 'inactive', version: '0.2.0', installedAt: '2026-11-20T08:03:12Z', good: true },
    ],
    update: null,
  });
});

test('a rauc that fails is a 503 with its words; no rauc at all (a laptop) is 200 with no slots', async () => {
  writeFileSync(failing, '');
  const res = await d.api('GET', '/system');
  assert.equal(res.status, 503);
  assert.equal(res.body.result.message, 'System status unavailable');
  assert.match(res.body.result.content.message, /status failed: .*Error retrieving slot status via D-Bus/);
  rmSync(rauc);
  const none = await d.api('GET', '/system');
  assert.equal(none.status, 200);
  assert.deepEqual(none.body.result.content, { bootSlot: null, slots: [], update: null });
});

test('openapi.json documents the answer of GET /system', async () => {
  const doc = (await d.api('GET', '/openapi.json', { key: null })).body;
  const schema = doc.paths['/system'].get.responses['200'].content['application/json'].schema.properties.result.properties.content;
  assert.deepEqual(Object.keys(schema.properties), ['bootSlot', 'slots', 'update']);
  assert.deepEqual(Object.keys(schema.properties.slots.items.properties), ['name', 'bootname', 'state', 'version', 'installedAt', 'good']);
  assert.ok(doc.paths['/system'].get.responses['503']);
});
