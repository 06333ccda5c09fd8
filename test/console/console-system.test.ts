// The console's System panel (Settings) in Debian's Chromium against the real daemon with the fake `rauc` the update
// route tests use (test/fixtures/fake-rauc.ts through PRINTPROXY_RAUC): the slots as GET /system reports them, RAUC
// failing and RAUC absent said in words, updates.fromFleet, Roll back, a refused bundle naming its check, and an
// uploaded bundle followed live through its phases to Reboot; at desktop width and at 360 px.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import type { DeviceEvent } from '../../src/events/event-bus';
import type { UpdateRecord } from '../../src/schemas/system';
import { FakeRauc } from '../fixtures/fake-rauc';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { verityBundle } from '../fixtures/verity-bundle';
import { builtConsole, launchChromium, openPage, screenshot, signIn, WIDTHS, type Width } from '../helpers/browser';
import { startDaemon } from '../helpers/daemon-process';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { tempDir } from '../helpers/temp-dir';

const key = 'inproc-key-0123456789abcdef';
const BUNDLE = { name: 'update-2.0.0.raucb', mimeType: 'application/octet-stream', buffer: verityBundle() };
const rauc = new FakeRauc({ booted: 'A', versions: { A: '1.0.0', B: '0.9.0' }, good: { A: true, B: true } });
const requests = join(tempDir('helper'), 'system-requests');
const events: DeviceEvent[] = [];
let consoleDir: string;
let d: InProcessDaemon;
let browser: BrowserContext;

before(async () => {
  writeFileSync(requests, '');
  consoleDir = await builtConsole();
  const env = { PRINTPROXY_CONSOLE_DIR: consoleDir, PRINTPROXY_RAUC: rauc.command, PRINTPROXY_SYSTEM_REQUESTS: requests, PRINTPROXY_GATE_REPORT: join(tempDir('gate'), 'gate-failure') };
  d = await startInProcess({ usb: () => new FakeUsbBus() }, undefined, false, false, env);
  d.events.subscribe((event) => events.push(event));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await d?.stop();
});

/** A signed-in tab at `width` on Settings, with the socket up; resolves with the System panel once its slots were read. */
async function systemPanel(width: Width, baseUrl = d.baseUrl, apiKey = key): Promise<{ page: Page; panel: Locator }> {
  const { page } = await openPage(browser, width, baseUrl);
  await signIn(page, apiKey);
  await page.getByText('Live', { exact: true }).waitFor();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
  const panel = page.getByRole('region', { name: 'System' });
  await panel.locator('table.slots, .slots-unavailable').first().waitFor();
  return { page, panel };
}

const system = async () => (await d.api('GET', '/system')).body.result.content;
const lastUpdate = async (): Promise<UpdateRecord> => (await d.api('GET', '/system/update')).body.result.content;

/** The text of each slot row's cells, by bootname. */
async function shownSlots(panel: Locator): Promise<Record<string, { version: string; state: string; good: string; current: string | null }>> {
  const shown: Record<string, { version: string; state: string; good: string; current: string | null }> = {};
  for (const row of await panel.locator('table.slots tbody tr').all()) {
    const cell = async (css: string) => (await row.locator(css).innerText()).trim();
    shown[(await row.getAttribute('data-slot'))!] = { version: await cell('.slot-version'), state: await cell('.slot-state'), good: await cell('.slot-good'), current: await row.getAttribute('aria-current') };
  }
  return shown;
}

/** Starts recording every value of the panel's data-phase (MutationObserver, old values kept: none missed between callbacks). */
async function recordPhases(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.phases = [];
    const panel = document.querySelector('[aria-labelledby="sys-h"]');
    new MutationObserver((records) => {
      for (const r of records) if (r.type === 'attributes' && r.oldValue !== null) window.phases.push(r.oldValue);
    }).observe(panel, { subtree: true, attributes: true, attributeFilter: ['data-phase'], attributeOldValue: true });
  })()`);
}

/** Every phase the panel has shown since recordPhases, the one now last, repeats dropped. */
async function phasesShown(page: Page): Promise<string[]> {
  const shown = await page.evaluate<string[]>(`[...window.phases, document.querySelector('.update-phase')?.dataset.phase]`);
  return shown.filter((p, i) => i === 0 || shown[i - 1] !== p);
}

for (const width of WIDTHS) {
  test(`System: the slots and versions GET /system reports, the booted and good ones marked; Roll back offered; updates.fromFleet switched on and off (${width.name})`, async () => {
    const api = await system();
    assert.equal(api.bootSlot, 'A');
    const { page, panel } = await systemPanel(width);
    assert.equal((await panel.locator('.boot-slot').innerText()).trim(), api.bootSlot);
    const expected = Object.fromEntries(
      (api.slots as Array<{ bootname: string; version: string; state: string; good: boolean }>).map((s) => [
        s.bootname,
        { version: s.version, state: s.state === 'booted' ? 'Booted (running now)' : 'Not booted', good: s.good ? 'Good' : 'Bad', current: s.state === 'booted' ? 'true' : null },
      ]),
    );
    assert.deepEqual(expected, {
      A: { version: '1.0.0', state: 'Booted (running now)', good: 'Good', current: 'true' },
      B: { version: '0.9.0', state: 'Not booted', good: 'Good', current: null },
    });
    assert.deepEqual(await shownSlots(panel), expected);
    await panel.getByText('No update has been installed on this device yet.').waitFor();
    await panel.getByRole('button', { name: 'Roll back to slot B (0.9.0)' }).waitFor();
    await screenshot(page, 'settings-system', width);

    const toggle = panel.getByLabel('Let the fleet start updates');
    for (const on of [true, false]) {
      await toggle.setChecked(on);
      await panel.getByRole('status').filter({ hasText: on ? 'Saved: the fleet may start updates.' : 'Saved: updates come only from' }).waitFor();
      assert.equal((await d.api('GET', '/settings')).body.result.content.updates.fromFleet, on);
      assert.equal(await toggle.isChecked(), on);
    }
    await page.close();
  });
}

test('System: RAUC failing (503) is said in words, with no upload offered; the rest of Settings still works', async () => {
  rauc.fail('status', 'Error retrieving slot status via D-Bus: error creating proxy');
  try {
    assert.equal((await d.api('GET', '/system')).status, 503);
    for (const width of WIDTHS) {
      const { page, panel } = await systemPanel(width);
      const said = await panel.locator('.slots-unavailable').innerText();
      assert.match(said, /^The slots cannot be read, so updates are not possible now\. System status unavailable: .*Error retrieving slot status via D-Bus/);
      assert.equal(await panel.getByLabel('Update bundle', { exact: true }).count(), 0);
      await page.getByRole('heading', { name: 'Webhooks', level: 2 }).waitFor();
      await page.locator('#st-alias:not([disabled])').waitFor();
      await page.close();
    }
  } finally {
    rauc.fail('status', null);
  }
});

test('System: a daemon on a machine without RAUC (as under npm start) says there are no slots, and offers no update', async () => {
  const bare = await startDaemon({ env: { PRINTPROXY_CONSOLE_DIR: consoleDir, PRINTPROXY_RAUC: join(tempDir('no-rauc'), 'rauc') }, startTimeoutMs: 60_000 });
  try {
    assert.deepEqual((await bare.api('GET', '/system')).body.result.content, { bootSlot: null, slots: [], update: null });
    for (const width of WIDTHS) {
      const { page, panel } = await systemPanel(width, bare.baseUrl, bare.apiKey);
      assert.match(await panel.locator('.slots-unavailable').innerText(), /^This machine has no A\/B slots \(no RAUC\)/);
      assert.equal(await panel.getByLabel('Update bundle', { exact: true }).count(), 0);
      assert.equal(await panel.getByRole('button', { name: /Roll back/ }).count(), 0);
      await panel.getByText('No update has been installed on this device yet.').waitFor();
      await panel.getByLabel('Let the fleet start updates').waitFor();
      await screenshot(page, 'settings-system-no-rauc', width);
      await page.close();
    }
  } finally {
    await bare.stop();
  }
});

for (const width of WIDTHS) {
  test(`System: Roll back, confirmed, makes the other slot active through RAUC and asks the root helper to reboot (${width.name})`, async () => {
    const marks = rauc.calls().filter((c) => c.includes('mark-active')).length;
    const reboots = readFileSync(requests, 'utf8');
    const { page, panel } = await systemPanel(width);
    await panel.getByRole('button', { name: 'Roll back to slot B (0.9.0)' }).click();
    await panel.getByRole('button', { name: 'Roll back and reboot now' }).click();
    await panel.getByRole('status').filter({ hasText: 'Rollback requested: the device restarts into slot B (0.9.0).' }).waitFor();
    assert.deepEqual(rauc.calls().filter((c) => c.includes('mark-active')).slice(marks), ['status mark-active other']);
    assert.equal(readFileSync(requests, 'utf8'), `${reboots}reboot\n`);
    await page.close();
  });
}

for (const width of WIDTHS) {
  test(`System: a bundle of another board is refused; the page names the failed check, and the update shows failed with the device's reason (${width.name})`, async () => {
    rauc.setInfo('2.0.0', 'printproxy-qemu-aarch64');
    const installs = rauc.callsOf('install').length;
    const { page, panel } = await systemPanel(width);
    await panel.getByLabel('Update bundle', { exact: true }).setInputFiles({ ...BUNDLE, name: 'other-board.raucb' });
    await panel.getByRole('button', { name: 'Upload and install' }).click();
    const alert = panel.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.innerText(), 'Update bundle refused: compatible: the bundle is for "printproxy-qemu-aarch64", this device is "printproxy-qemu-x86_64" (failed check: compatible)');
    const api = await lastUpdate();
    assert.deepEqual([api.phase, api.error], ['failed', 'compatible: the bundle is for "printproxy-qemu-aarch64", this device is "printproxy-qemu-x86_64"']);
    await panel.locator(`[data-update="${api.id}"] .update-phase[data-phase="failed"]`).waitFor();
    assert.equal(await panel.locator('.update-error').innerText(), api.error);
    assert.equal(rauc.callsOf('install').length, installs, 'nothing installed');
    await screenshot(page, 'settings-system-refused', width);
    await page.close();
  });
}

test('System: an uploaded bundle is followed live through each phase the device announces, from 1.0.0 to 2.0.0; the slots show the installed version; Reboot asks the helper and shows rebooting', async () => {
  rauc.setInfo('2.0.0');
  rauc.afterInstall({ booted: 'A', versions: { A: '1.0.0', B: '2.0.0' }, good: { A: true, B: null } });
  const { page, panel } = await systemPanel(WIDTHS[0]);
  await recordPhases(page);
  const seen = events.length;
  await panel.getByLabel('Update bundle', { exact: true }).setInputFiles(BUNDLE);
  await panel.getByText('Chosen: update-2.0.0.raucb').waitFor();
  await panel.getByLabel('Reboot into it').selectOption('manual');
  await panel.getByRole('button', { name: 'Upload and install' }).click();
  await panel.locator('.update-phase[data-phase="awaiting-reboot"]').waitFor();

  const api = await lastUpdate();
  assert.deepEqual([api.phase, api.from, api.to, api.targetSlot, api.reboot], ['awaiting-reboot', '1.0.0', '2.0.0', 'B', 'manual']);
  await panel.getByRole('status').filter({ hasText: `Accepted: the bundle was checked, and update ${api.id} (1.0.0 → 2.0.0) is installing.` }).waitFor();
  const announced = events.slice(seen).filter((e) => e.type === 'system.update' && (e.data as UpdateRecord).id === api.id).map((e) => (e.data as UpdateRecord).phase);
  const phases = announced.filter((p, i) => i === 0 || announced[i - 1] !== p);
  assert.deepEqual(phases, ['downloading', 'verifying', 'installing', 'awaiting-reboot']);
  const shown = await phasesShown(page);
  assert.deepEqual(shown.slice(shown.indexOf('downloading')), phases, 'the page showed each phase as its event came');
  assert.equal(await panel.locator('.update-versions').innerText(), `${api.from} → ${api.to}`);
  assert.equal(await panel.locator('.update-error').innerText(), 'None');
  assert.equal(await panel.locator('.update-progress').innerText(), `${api.progress} %`);

  // the install wrote slot B: the table is read again and shows what GET /system now says
  await panel.locator('tr[data-slot="B"] .slot-version', { hasText: '2.0.0' }).waitFor();
  assert.deepEqual(await shownSlots(panel), {
    A: { version: '1.0.0', state: 'Booted (running now)', good: 'Good', current: 'true' },
    B: { version: '2.0.0', state: 'Not booted', good: 'Not marked', current: null },
  });
  assert.deepEqual((await system()).slots.map((s: { bootname: string; version: string; good: boolean | null }) => [s.bootname, s.version, s.good]), [['A', '1.0.0', true], ['B', '2.0.0', null]]);
  assert.equal(await panel.getByRole('button', { name: /Roll back/ }).count(), 0, 'no rollback while an update waits for its reboot');
  assert.ok(await panel.getByRole('button', { name: 'Upload and install' }).isDisabled(), 'one update at a time');
  await screenshot(page, 'settings-system-installed', WIDTHS[0]);

  const asked = readFileSync(requests, 'utf8');
  await panel.getByRole('button', { name: 'Reboot now' }).click();
  await panel.getByRole('status').filter({ hasText: 'Reboot requested: the device restarts into the new slot' }).waitFor();
  await panel.locator('.update-phase[data-phase="rebooting"]').waitFor();
  assert.equal((await lastUpdate()).phase, 'rebooting');
  assert.equal(readFileSync(requests, 'utf8'), `${asked}reboot\n`, 'the helper was asked once more');
  assert.equal(await panel.getByRole('button', { name: 'Reboot now' }).count(), 0);
  await page.close();

  // a phone opened now shows the same update and slots
  const phone = await systemPanel(WIDTHS[1]);
  await phone.panel.locator(`[data-update="${api.id}"] .update-phase[data-phase="rebooting"]`).waitFor();
  assert.equal(await phone.panel.locator('.update-versions').innerText(), '1.0.0 → 2.0.0');
  assert.equal((await shownSlots(phone.panel)).B.version, '2.0.0');
  await screenshot(phone.page, 'settings-system-rebooting', WIDTHS[1]);
  await phone.page.close();
});
