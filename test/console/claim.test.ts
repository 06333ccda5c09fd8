// The console's one-time "Set the API key" page in Debian's Chromium, against a real daemon that starts without a key.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { builtConsole, launchChromium, openPage, screenshot, signIn, WIDTHS } from '../helpers/browser';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';

const KEY = 'console-claim-0123456789';
let d: InProcessDaemon;
let browser: BrowserContext;

before(async () => {
  d = await startInProcess({ usb: () => new FakeUsbBus() }, undefined, false, false, { PRINTPROXY_API_KEY: '', PRINTPROXY_CONSOLE_DIR: await builtConsole() });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await d?.stop();
});

test('an unclaimed device shows "Set the API key" at /; the key set there signs in, and from then on the sign-in shows instead', async () => {
  for (const width of WIDTHS) {
    const { page } = await openPage(browser, width, d.baseUrl);
    await page.getByRole('heading', { name: 'Set the API key', level: 1 }).waitFor();
    await screenshot(page, 'claim', width);
    await page.close();
  }
  const { page, urls } = await openPage(browser, WIDTHS[0], d.baseUrl);
  const key = page.getByLabel('New API key (at least 16 characters)');
  const again = page.getByLabel('Repeat the key');
  const submit = page.getByRole('button', { name: 'Set the key' });
  await key.fill('short key');
  await again.fill('short key');
  await submit.click();
  await page.getByRole('alert').filter({ hasText: 'at least 16 characters' }).waitFor();
  await key.fill(KEY);
  await again.fill(`${KEY}x`);
  await submit.click();
  await page.getByRole('alert').filter({ hasText: 'The two keys differ' }).waitFor();
  assert.deepEqual((await d.api('GET', '/setup', { key: null })).body.result.content, { claimed: false }, 'nothing was sent yet');
  await again.fill(KEY);
  await submit.click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  assert.deepEqual((await d.api('GET', '/setup', { key: null })).body.result.content, { claimed: true });
  assert.equal((await d.api('GET', '/status', { key: KEY })).status, 200, 'the key chosen is the device key');
  assert.ok(!urls.some((url) => url.includes(KEY)), 'the key is never in a URL');
  await page.close();

  const { page: later } = await openPage(browser, WIDTHS[0], d.baseUrl);
  await signIn(later, KEY);
  assert.equal(await later.getByRole('heading', { name: 'Set the API key' }).count(), 0, 'the claim page is gone');
  await later.close();
});
