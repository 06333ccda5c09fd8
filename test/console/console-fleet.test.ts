// The console's Fleet panel in Debian's Chromium against the real daemon and a real Mosquitto: certificates pasted and
// uploaded, the state shown from GET /status, secrets never shown back; at desktop width and at 360 px.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { startBroker, type Broker } from '../fixtures/mosquitto-broker';
import { builtConsole, launchChromium, openPage, screenshot, signIn, WIDTHS } from '../helpers/browser';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { tempDir } from '../helpers/temp-dir';

const key = 'inproc-key-0123456789abcdef';
let d: InProcessDaemon;
let broker: Broker;
let browser: BrowserContext;

before(async () => {
  broker = await startBroker();
  d = await startInProcess({ usb: () => new FakeUsbBus() }, undefined, false, false, { PRINTPROXY_CONSOLE_DIR: await builtConsole() });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await d?.stop();
  await broker?.stop();
});

/** Clicks Save and waits until the page shows the answer to that PUT (the form is then refilled from it). */
async function save(page: Page): Promise<void> {
  const answered = page.waitForResponse((r) => r.url().endsWith('/api/v1/fleet') && r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Save fleet settings' }).click();
  await answered;
}

async function fleetPanel(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('heading', { name: 'Fleet', level: 2 }).waitFor();
  // the form is enabled once GET /fleet has filled it
  await page.locator('#fl-url:not([disabled])').waitFor();
}

for (const [i, width] of WIDTHS.entries()) {
  test(`Fleet: broker and certificates (CA pasted, certificate and key uploaded) saved; the panel shows Connected; the key is never shown back (${width.name})`, async () => {
    const deviceId = `console-${i}`;
    const id = broker.cert(deviceId);
    const files = tempDir('fleet-console');
    writeFileSync(join(files, 'device.pem'), id.cert);
    writeFileSync(join(files, 'device.key'), id.key);
    const { page } = await openPage(browser, width, d.baseUrl);
    await signIn(page, key);
    await fleetPanel(page);
    await page.getByLabel('Connect to the fleet broker').check();
    await page.getByLabel('Broker URL').fill(broker.url);
    await page.getByLabel('Device ID').fill(deviceId);
    await page.getByLabel('CA certificate (PEM)').fill(broker.ca);
    await page.getByLabel('Upload device certificate').setInputFiles(join(files, 'device.pem'));
    await page.getByLabel('Upload device private key').setInputFiles(join(files, 'device.key'));
    assert.equal((await page.getByLabel('Device certificate (PEM)').inputValue()).trim(), id.cert.trim());
    await save(page);
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.locator('.fleet-state[data-state="connected"]').waitFor({ timeout: 20_000 });
    assert.match(await page.locator('.fleet-state').innerText(), /^Connected since /);
    assert.equal(await page.getByLabel('Device private key (PEM)').inputValue(), '', 'the stored key is not shown');
    assert.match((await page.getByLabel('Device private key (PEM)').getAttribute('placeholder')) ?? '', /A key is stored/);
    await screenshot(page, 'settings-fleet', width);

    // saved again without touching the key: it is kept (the device stays connected with it)
    await page.getByLabel('Topic prefix').fill('printproxy/v1');
    await save(page);
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.locator('.fleet-state[data-state="connected"]').waitFor({ timeout: 20_000 });
    const stored = await d.api('GET', '/fleet');
    assert.equal(stored.body.result.content.key, '********');
    assert.equal(stored.body.result.content.deviceId, deviceId);

    // a refused value is said in words, naming the field, and nothing changes
    await page.getByLabel('Broker URL').fill('http://not-mqtt');
    await save(page);
    assert.match(await page.getByRole('alert').innerText(), /brokerUrl/);
    assert.equal((await d.api('GET', '/fleet')).body.result.content.brokerUrl, broker.url);

    await d.api('PUT', '/fleet', { body: { ...stored.body.result.content, enabled: false } });
    await page.close();
  });
}
