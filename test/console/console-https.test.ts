// The console on the HTTPS listener: the page with its security headers, sign-in, and the live socket over wss (CSP connect-src 'self').
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext } from 'playwright-core';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { builtConsole, launchChromium, openPage, signIn, WIDTHS } from '../helpers/browser';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';

const KEY = 'inproc-key-0123456789abcdef';
let d: InProcessDaemon;
let browser: BrowserContext;

before(async () => {
  d = await startInProcess({ usb: () => new FakeUsbBus() }, undefined, false, true, { PRINTPROXY_CONSOLE_DIR: await builtConsole() });
  browser = await launchChromium(true);
});

after(async () => {
  await browser?.close();
  await d?.stop();
});

for (const width of WIDTHS) {
  test(`over HTTPS: the page with its CSP, sign in, and live events over wss (${width.name})`, async () => {
    assert.ok(d.httpsPort);
    const origin = `https://127.0.0.1:${d.httpsPort}`;
    const { page, urls } = await openPage(browser, width, origin);
    const answer = await page.goto(`${origin}/`);
    assert.equal(answer!.status(), 200);
    assert.match(answer!.headers()['content-security-policy'], /connect-src 'self'/);
    assert.equal(answer!.headers()['x-frame-options'], 'DENY');
    await signIn(page, KEY);
    await page.getByText('Live', { exact: true }).waitFor();
    assert.ok(urls.some((u) => u.startsWith(`wss://127.0.0.1:${d.httpsPort}/api/v1/events`)), 'the socket went over wss');
    await page.close();
  });
}
