// The web console in Debian's Chromium against the real daemon and the ZPL emulator, each test at desktop width and at 360 px.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContext, Page } from 'playwright-core';
import { code128Png } from '../fixtures/barcode-images';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { WebhookReceiver } from '../fixtures/webhook-receiver';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { builtConsole, launchChromium, openPage, screenshot, signIn, WIDTHS, type Width } from '../helpers/browser';
import { until } from '../helpers/until';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { decodeLabels } from '../render/zpl-label-decode';

let key = 'inproc-key-0123456789abcdef';
/** Roles of the controls a person operates: each must have an accessible name. */
const CONTROL_ROLES = new Set(['button', 'link', 'textbox', 'combobox', 'checkbox', 'spinbutton', 'searchbox', 'listbox', 'radio', 'slider', 'switch', 'menuitem', 'tab']);
let d: InProcessDaemon;
let zebra: ZplPrinterEmulator;
let browser: BrowserContext;
let label = '';

before(async () => {
  // status probes every second (the paper-out test's 3 s), and the device's own ~HS time limit (the helper's 300 ms is for
  // failure tests): on a loaded machine a shorter one makes the printed tracker take slow answers for silence and give up
  const env = { PRINTPROXY_CONSOLE_DIR: await builtConsole(), PRINTPROXY_TCP_QUERY_TIMEOUT_MS: '1500' };
  d = await startInProcess({ usb: () => new FakeUsbBus() }, undefined, false, false, env);
  zebra = new ZplPrinterEmulator();
  const port = await zebra.start();
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, model: 'Zebra ZD421', tags: ['shipping'] } });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  label = added.body.result.content.path;
  browser = await launchChromium();
  await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: d.baseUrl });
});

after(async () => {
  await browser?.close();
  await d?.stop();
  await zebra?.stop();
});

/** A signed-in tab at `width`, on the page that the nav link `link` opens. */
async function signedIn(width: Width, link?: string): Promise<Page> {
  const { page } = await openPage(browser, width, d.baseUrl);
  await signIn(page, key);
  if (link) await navTo(page, link);
  return page;
}

async function navTo(page: Page, link: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: link, level: 1 }).waitFor();
}

async function headers(page: Page, table: string): Promise<string[]> {
  return (await page.locator(`${table} thead th`).allTextContents()).map((t) => t.trim());
}

/** Drops `file` on the Print page's drop zone, as a drag from the desktop would. */
async function dropFile(page: Page, file: { name: string; mimeType: string; buffer: Buffer }): Promise<void> {
  const dataTransfer = await page.evaluateHandle(`(() => {
    const bytes = Uint8Array.from(atob('${file.buffer.toString('base64')}'), (c) => c.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], ${JSON.stringify(file.name)}, { type: ${JSON.stringify(file.mimeType)} }));
    return transfer;
  })()`);
  await page.locator('.drop').dispatchEvent('dragover', { dataTransfer });
  await page.locator('.drop').dispatchEvent('drop', { dataTransfer });
}

/** The preview image's size in pixels, once it has loaded. */
async function previewSize(page: Page): Promise<[number, number]> {
  const img = page.getByRole('img', { name: /^Preview of page 1 of 1/ });
  await img.waitFor();
  // decode() settles once the PNG is decoded: its natural size is then known (a function, not a string: the CSP forbids eval)
  return img.evaluate(async (i) => {
    const image = i as unknown as { decode(): Promise<void>; naturalWidth: number; naturalHeight: number };
    await image.decode();
    return [image.naturalWidth, image.naturalHeight] as [number, number];
  });
}

for (const width of WIDTHS) {
  test(`sign in: a wrong key is refused in words; the right one, sent by Enter, opens the console; security headers; the key is in no URL (${width.name})`, async () => {
    const { page, urls } = await openPage(browser, width, d.baseUrl);
    const deepLink = await page.goto(`${d.baseUrl}/printers`);
    const security = deepLink!.headers();
    assert.equal(deepLink!.status(), 200);
    assert.match(security['content-security-policy'], /default-src 'none'/);
    assert.match(security['content-security-policy'], /connect-src 'self'/);
    assert.match(security['content-security-policy'], /frame-ancestors 'none'/);
    assert.equal(security['x-frame-options'], 'DENY');
    assert.equal(security['referrer-policy'], 'no-referrer');
    // the form shows once GET /setup said the device has a key (else the "Set the API key" page would)
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await screenshot(page, 'sign-in', width);

    await page.getByLabel('API key').fill('not-the-key-0000000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.match(await page.getByRole('alert').innerText(), /refused the API key/);

    const remember = width.name === 'desktop';
    await page.getByLabel('API key').fill(key);
    if (remember) await page.getByLabel('Remember on this browser').check();
    await page.getByLabel('API key').press('Enter');
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Overview', 'Printers', 'Print', 'Jobs', 'Settings']) await nav.getByRole('link', { name, exact: true }).waitFor();
    const stored = await page.evaluate<Array<string | null>>("[localStorage.getItem('printproxyd.apiKey'), sessionStorage.getItem('printproxyd.apiKey')]");
    assert.deepEqual(stored, remember ? [key, null] : [null, key]);

    await page.getByRole('heading', { name: 'Printers', level: 1 }).waitFor();
    await page.getByText('Live', { exact: true }).waitFor();
    await navTo(page, 'Overview');
    await page.locator('dd', { hasText: / free of / }).waitFor();
    await page.locator('dd', { hasText: /^1$/ }).first().waitFor();
    await screenshot(page, 'overview', width);
    await page.reload();
    await page.locator('dd', { hasText: / free of / }).waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate('document.activeElement?.textContent'), 'Skip to content', 'signed in after a reload, and the first Tab reaches the skip link');
    assert.ok(urls.some((u) => u.includes('/api/v1/events')), 'the socket was opened');
    assert.deepEqual(urls.filter((u) => u.includes(key) || u.includes('not-the-key')), [], 'no URL carries a key');
    await page.close();
  });

  test(`the emulated printer goes paper-out and the Printers table says so within 3 s, live, without moving the layout (${width.name})`, async () => {
    const page = await signedIn(width, 'Printers');
    assert.deepEqual(await headers(page, 'table.printers'), ['Printer', 'Status', 'Kind', 'Tags']);
    const row = page.locator(`tr[data-path="${label}"]`);
    await row.getByText('Online', { exact: true }).waitFor();
    assert.match(await row.innerText(), /Zebra ZD421[\s\S]*Label \(ZPL\), TCP[\s\S]*shipping/);
    // cumulative layout shift from here on (entries caused by input excluded), as the web-vitals library counts it
    await page.evaluate(`window.layoutShift = 0;
      window.shifts = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) { window.layoutShift += e.value; window.shifts.push(e.sources.map((s) => [s.node?.outerHTML?.slice(0, 80), JSON.stringify(s.previousRect), JSON.stringify(s.currentRect)])); } }).observe({ type: 'layout-shift' });`);

    zebra.state.paperOut = true;
    await row.getByText('Printer is out of paper (load labels and close the head)').waitFor({ timeout: 3000 });
    assert.doesNotMatch(await row.innerText(), /Online/);
    await screenshot(page, 'printers-paper-out', width);
    zebra.state.paperOut = false;
    await row.getByText('Online', { exact: true }).waitFor({ timeout: 3000 });
    assert.equal(page.url(), `${d.baseUrl}/printers`, 'no reload, no navigation');
    assert.equal(await page.evaluate('window.layoutShift'), 0, `live status changes shift nothing: ${JSON.stringify(await page.evaluate('window.shifts'))}`);
    await screenshot(page, 'printers', width);
    await page.close();
  });

  test(`Add printer: a TCP printer added through the form, edited on its page, and deleted (${width.name})`, async () => {
    const dock = new ZplPrinterEmulator();
    const port = await dock.start();
    try {
      const page = await signedIn(width, 'Printers');
      await page.getByRole('button', { name: 'Add printer' }).click();
      await page.getByLabel('Protocol').selectOption('tcp');
      await page.getByLabel('Host').fill('127.0.0.1');
      await page.getByLabel('Port').fill(String(port));
      await page.getByLabel('Model').fill('Dock printer');
      await page.getByLabel('Tags').fill('dock');
      await screenshot(page, 'add-printer', width);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      const row = page.locator('tr', { hasText: 'Dock printer' });
      await row.waitFor();
      const path = (await row.getAttribute('data-path'))!;
      assert.match(path, new RegExp(`${port}`));
      assert.match(await row.innerText(), /Label \(ZPL\), TCP[\s\S]*dock/);

      await row.getByRole('link', { name: 'Dock printer' }).click();
      await page.getByRole('heading', { name: 'Dock printer', level: 1 }).waitFor();
      await page.getByText('None: ready').waitFor();
      await page.getByLabel('Resolution (dpi)').selectOption('300');
      await page.getByLabel('Tags').fill('dock, fast');
      await page.getByLabel('Share over IPP Everywhere (AirPrint, Mopria, Windows, CUPS)').check();
      await page.getByRole('button', { name: 'Save printer settings' }).click();
      await page.getByText('Saved.').waitFor();
      const stored = (await d.api('GET', `/printers/${encodeURIComponent(path)}`, { key })).body.result.content;
      assert.equal(stored.dpi, 300);
      assert.deepEqual(stored.tags, ['dock', 'fast']);
      assert.deepEqual(stored.share, { ipp: true, rawPort: null });
      await screenshot(page, 'printer', width);

      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('button', { name: 'Delete Dock printer for good' }).click();
      await page.getByRole('heading', { name: 'Printers', level: 1 }).waitFor();
      await row.waitFor({ state: 'detached' });
      assert.equal((await d.api('GET', `/printers/${encodeURIComponent(path)}`, { key })).status, 404);
      await page.close();
    } finally {
      await dock.stop();
    }
  });

  test(`Print: a PDF (file field) and a PNG (dropped) previewed (the image has as many pixels as the label has dots) and printed; the labels reach the emulator; Jobs shows when they were printed (${width.name})`, async () => {
    const page = await signedIn(width, 'Print');
    const before = zebra.jobs().length;
    const documents = [
      { name: 'shipping-label.pdf', mimeType: 'application/pdf', buffer: Buffer.from(await shippingLabelPdf()) },
      { name: 'barcode.png', mimeType: 'image/png', buffer: Buffer.from(await code128Png('CONSOLE-PNG', 2)) },
    ];
    for (const [i, document] of documents.entries()) {
      if (i === 0) await page.getByLabel('Document', { exact: true }).setInputFiles(document);
      else await dropFile(page, document);
      await page.getByText(`Chosen: ${document.name}`).waitFor();
      await page.getByLabel('Printer', { exact: true }).selectOption(label);
      await page.getByRole('button', { name: 'Preview' }).click();
      const size = await previewSize(page);
      if (i === 0) {
        assert.deepEqual(size, [812, 1218], 'a 4x6 in label at 203 dpi');
        await screenshot(page, 'print-preview', width);
      }
      assert.equal(zebra.jobs().length, before + i, 'a preview prints nothing');
      const earlier = await page.locator('.job-state').allInnerTexts();
      await page.getByRole('button', { name: 'Print', exact: true }).click();
      await page.locator('.job-state.completed').filter({ hasNotText: earlier[0] ?? 'no earlier job' }).waitFor();
      assert.equal(zebra.jobs().length, before + i + 1);
      const [printed] = decodeLabels(zebra.jobs().at(-1)!.toString('latin1'));
      assert.deepEqual([printed.pw, printed.ll], size, `${document.name}: the printed label has as many dots as the preview has pixels`);
    }
    const jobId = /pj_[0-9a-f]{12}/.exec(await page.locator('.job-state.completed').innerText())![0];
    await navTo(page, 'Jobs');
    await page.locator(`tr[data-job="${jobId}"]`).getByText(/^Printed /).waitFor();
    assert.notEqual((await d.api('GET', `/jobs/${jobId}`, { key })).body.result.content.printedAt, null, 'the Jobs table shows printedAt once the printer confirms');
    await page.close();
  });

  test(`Print: a job that ended before the print request's answer reached the page still shows completed, not the state the answer carried (${width.name})`, async () => {
    const { page } = await openPage(browser, width, d.baseUrl);
    const frames: string[] = [];
    page.on('websocket', (socket) => socket.on('framereceived', (frame) => frames.push(String(frame.payload))));
    await signIn(page, key);
    await navTo(page, 'Print');
    // the answer (taken while the job was still queued) is handed to the page only once the job's `completed` event was
    await page.route('**/api/v1/print/**', async (route) => {
      const response = await route.fetch();
      const answered: { result: { content: { jobId: string; state: string } } } = await response.json();
      const { jobId } = answered.result.content;
      await until('the page received the job\'s completed event', () => frames.some((f) => f.includes(jobId) && f.includes('"completed"')));
      await page.evaluate('0');
      await route.fulfill({ response });
    });
    await page.getByLabel('Document', { exact: true }).setInputFiles({ name: 'race.zpl', mimeType: 'text/plain', buffer: Buffer.from('^XA^FO20,20^A0N,30,30^FDrace^FS^XZ') });
    await page.getByLabel('Printer', { exact: true }).selectOption(label);
    await page.getByRole('button', { name: 'Print', exact: true }).click();
    const progress = page.locator('.job-state');
    await progress.waitFor();
    await until('the job shows completed', async () => (await progress.getAttribute('class'))?.includes('completed') ?? false, 15_000).catch(async (err) => {
      throw new Error(`${(err as Error).message}; it shows: ${await progress.innerText()}`);
    });
    await page.close();
  });

  test(`Jobs: a job held by a paper-out printer shows queued with Cancel, and is cancelled (${width.name})`, async () => {
    const page = await signedIn(width, 'Print');
    zebra.state.paperOut = true;
    try {
      const before = zebra.jobs().length;
      await page.getByLabel('Document', { exact: true }).setInputFiles({ name: 'held.zpl', mimeType: 'text/plain', buffer: Buffer.from('^XA^FO20,20^A0N,30,30^FDheld^FS^XZ') });
      await page.getByLabel('Printer', { exact: true }).selectOption(label);
      await page.getByRole('button', { name: 'Preview' }).click();
      assert.equal(await page.getByRole('alert').innerText(), 'Preview not available: zpl data goes to the printer as it is: the device draws no preview of it', 'an API error in words');
      await page.getByRole('button', { name: 'Print', exact: true }).click();
      const progress = page.locator('.job-state.queued');
      await progress.waitFor();
      const jobId = /pj_[0-9a-f]{12}/.exec(await progress.innerText())![0];

      await navTo(page, 'Jobs');
      assert.deepEqual(await headers(page, 'table.jobs'), ['Job', 'Printer', 'State', 'Created']);
      const row = page.locator(`tr[data-job="${jobId}"]`);
      await row.getByText('queued', { exact: true }).waitFor();
      await screenshot(page, 'jobs', width);
      await row.getByRole('button', { name: `Cancel job ${jobId}` }).click();
      await row.getByText('failed', { exact: true }).waitFor();
      await row.getByText('Canceled').waitFor();
      assert.equal(await row.getByRole('button', { name: /Cancel/ }).count(), 0, 'a finished job has no Cancel');
      assert.equal((await d.api('GET', `/jobs/${jobId}`, { key })).body.result.content.state, 'failed');
      assert.equal(zebra.jobs().length, before, 'the cancelled job never reached the printer');
      await page.close();
    } finally {
      zebra.state.paperOut = false;
    }
  });

  test(`every control on every page has an accessible name; pages, scan and a printer's page reached by keyboard alone; light and dark follow the system (${width.name})`, async () => {
    const page = await signedIn(width);
    const cdp = await page.context().newCDPSession(page);
    const unnamed = async (where: string) => {
      const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: Array<{ ignored: boolean; role?: { value: string }; name?: { value: string } }> };
      const controls = nodes.filter((n) => !n.ignored && CONTROL_ROLES.has(n.role?.value ?? ''));
      assert.ok(controls.length > 3, `${where}: controls found`);
      return controls.filter((n) => !n.name?.value?.trim()).map((n) => `${where}: a ${n.role!.value} without a name`);
    };
    const missing: string[] = [];
    for (const link of ['Overview', 'Printers', 'Print', 'Jobs', 'Settings']) {
      await navTo(page, link);
      if (link === 'Printers') await page.getByRole('button', { name: 'Add printer' }).click();
      missing.push(...(await unnamed(link)));
    }
    await navTo(page, 'Printers');
    await page.getByRole('link', { name: 'Zebra ZD421' }).click();
    await page.getByRole('heading', { name: 'Zebra ZD421', level: 1 }).waitFor();
    missing.push(...(await unnamed('printer page')));
    assert.deepEqual(missing, []);

    await navTo(page, 'Overview');
    const focusOn = async (name: string) => {
      for (let i = 0; i < 60 && (await page.evaluate('document.activeElement?.textContent?.trim()')) !== name; i += 1) await page.keyboard.press('Tab');
      assert.equal(await page.evaluate('document.activeElement?.textContent?.trim()'), name, `Tab reaches ${name}`);
    };
    await focusOn('Printers');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Printers', level: 1 }).waitFor();
    await focusOn('Scan for printers');
    await page.keyboard.press('Enter');
    await page.getByText('Scan finished.').waitFor();
    await focusOn('Zebra ZD421');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Zebra ZD421', level: 1 }).waitFor();

    const background = () => page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal(await background(), 'rgb(246, 247, 249)');
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal(await background(), 'rgb(18, 21, 26)');
    await screenshot(page, 'printer-dark', width);
    await navTo(page, 'Printers');
    await screenshot(page, 'printers-dark', width);
    await page.close();
  });

  test(`Settings: a webhook added, tested and deleted (${width.name})`, async () => {
    const receiver = new WebhookReceiver();
    const url = await receiver.start();
    try {
      const page = await signedIn(width, 'Settings');
      await page.getByLabel('Webhook URL').fill(url);
      await page.getByLabel('Event types').fill('job.*');
      await page.getByRole('button', { name: 'Add webhook' }).click();
      await page.getByText('Signing secret of the new webhook (shown once)').waitFor();
      await page.getByRole('button', { name: `Test webhook ${url}` }).click();
      await page.getByText(`Test event sent to ${url}.`).waitFor();
      await screenshot(page, 'settings', width);
      await page.getByRole('button', { name: `Delete webhook ${url}` }).click();
      await page.getByText(`Webhook ${url} deleted.`).waitFor();
      assert.deepEqual((await d.api('GET', '/webhooks', { key })).body.result.content, []);
      await page.close();
    } finally {
      await receiver.stop();
    }
  });

  test(`Settings: Rotate API key shows the new key once with a copy button; the old key is refused, the new one signs in (${width.name})`, async () => {
    const page = await signedIn(width, 'Settings');
    await page.getByRole('button', { name: 'Rotate API key' }).click();
    await page.getByRole('button', { name: 'Replace the key now' }).click();
    const shown = page.getByLabel('New API key (shown once)');
    await shown.waitFor();
    const newKey = await shown.inputValue();
    assert.match(newKey, /^\S{16,}$/);
    assert.notEqual(newKey, key);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByText(/^(Copied\.|Selected: press)/).waitFor();
    const old = key;
    key = newKey;
    await page.getByRole('button', { name: 'Done' }).click();
    assert.equal(await shown.count(), 0, 'the key is shown once');
    await navTo(page, 'Printers');
    await page.locator(`tr[data-path="${label}"]`).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').fill(old);
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.match(await page.getByRole('alert').innerText(), /refused the API key/);
    await signIn(page, newKey);
    await page.close();
  });
}
