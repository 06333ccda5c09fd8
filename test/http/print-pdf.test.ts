// PDFs to a ZPL printer through the HTTP API: rendered for pdf_*, untouched for raw_*, failures confined to their job.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { greyPagePdf } from '../fixtures/pdf/grey-pdf';
import { boxedPagePdf, manyPagesPdf } from '../fixtures/pdf/hostile-pdf';
import { countBlack, decodeLabels } from '../render/zpl-label-decode';

let d: DaemonHandle;
let emulator: ZplPrinterEmulator;
let path: string;

before(async () => {
  d = await startDaemon();
  emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  path = res.body.result.content.path;
});
after(async () => {
  await d.stop();
  await emulator.stop();
});

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

test('pdf_base64 is rendered: one ^XA…^XZ per page with ^PW/^LL from the page and a Z64 ^GFA graphic', async () => {
  const res = await d.api('POST', `/print/${path}`, { body: { content: b64(boxedPagePdf(288, 432)), contentType: 'pdf_base64', copies: 2 } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const zpl = emulator.jobs().at(-1)!.toString('latin1');
  assert.match(zpl, /^\^XA\^PW812\^LL1218/);
  assert.match(zpl, /\^GFA,\d+,\d+,102,:Z64:[A-Za-z0-9+/=]+:[0-9a-f]{4}/i);
  assert.match(zpl, /\^PQ2/);
  assert.equal(zpl.match(/\^XA/g)?.length, 1);
});

test('paperSize forces the label size', async () => {
  const res = await d.api('POST', `/print/${path}`, { body: { content: b64(boxedPagePdf(288, 432)), contentType: 'pdf_base64', options: { paperSize: '2x1' } } });
  assert.equal(res.status, 200);
  assert.match(emulator.jobs().at(-1)!.toString('latin1'), /^\^XA\^PW406\^LL203/);
});

test('raw_base64 carrying a PDF passes through untouched', async () => {
  const pdf = boxedPagePdf(144, 72);
  const res = await d.api('POST', `/print/${path}`, { body: { content: b64(pdf), contentType: 'raw_base64' } });
  assert.equal(res.status, 200);
  assert.deepEqual(emulator.jobs().at(-1), Buffer.from(pdf));
});

test('a hostile PDF fails only its own job with a clear error; the next PDF prints', async () => {
  const garbage = await d.api('POST', `/print/${path}`, { body: { content: b64(Buffer.from('%PDF-1.7\nnot really a pdf')), contentType: 'pdf_base64' } });
  assert.equal(garbage.status, 502);
  assert.equal(garbage.body.result.content.state, 'failed');
  assert.match(garbage.body.result.content.error, /PDF/i);
  const huge = await d.api('POST', `/print/${path}`, { body: { content: b64(manyPagesPdf(10_000)), contentType: 'pdf_base64' } });
  assert.equal(huge.status, 502);
  assert.match(huge.body.result.content.error, /10000|page/i);
  const before = emulator.jobs().length;
  const ok = await d.api('POST', `/print/${path}`, { body: { content: b64(boxedPagePdf(288, 432)), contentType: 'pdf_base64' } });
  assert.equal(ok.status, 200);
  assert.equal(emulator.jobs().length, before + 1);
});

/** Prints `pdf` as pdf_base64 with `options`; returns the one label the printer received, decoded. */
async function printLabel(pdf: Uint8Array, options: Record<string, unknown> = {}) {
  const res = await d.api('POST', `/print/${path}`, { body: { content: b64(pdf), contentType: 'pdf_base64', options } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const labels = decodeLabels(emulator.jobs().at(-1)!.toString('latin1'));
  assert.equal(labels.length, 1);
  return labels[0];
}

/** Share of black dots in a label's graphic (0..1). */
const blackShare = (label: Awaited<ReturnType<typeof printLabel>>) => countBlack(label.bitmap) / (label.bitmap.width * label.bitmap.height);

test('a printer PATCHed to 300 dpi renders at 300 dpi (a 4x6 in page is ^PW1200^LL1800); null goes back to 203', async () => {
  const patched = await d.api('PATCH', `/printers/${path}`, { body: { dpi: 300 } });
  assert.equal(patched.status, 200, JSON.stringify(patched.body));
  assert.equal(patched.body.result.content.dpi, 300);
  assert.equal((await d.api('GET', `/printers/${path}`)).body.result.content.dpi, 300);
  const label = await printLabel(boxedPagePdf(288, 432));
  assert.deepEqual([label.pw, label.ll], [1200, 1800]);
  const forced = await printLabel(boxedPagePdf(288, 432), { paperSize: '2x1' });
  assert.deepEqual([forced.pw, forced.ll], [600, 300], 'paperSize is sized at the printer dpi too');
  const cleared = await d.api('PATCH', `/printers/${path}`, { body: { dpi: null } });
  assert.equal(cleared.status, 200);
  assert.equal('dpi' in cleared.body.result.content, false, 'an unknown dpi is absent from the printer');
  const back = await printLabel(boxedPagePdf(288, 432));
  assert.deepEqual([back.pw, back.ll], [812, 1218]);
});

test('an invalid dpi or dither in PATCH is a 400 naming the field, and changes nothing', async () => {
  for (const [body, message] of [
    [{ dpi: 250 }, 'dpi must be one of 152, 203, 300, 600 or null'],
    [{ dpi: '300' }, 'dpi must be one of 152, 203, 300, 600 or null'],
    [{ dither: 'yes' }, 'dither must be a boolean or null'],
  ] as const) {
    const res = await d.api('PATCH', `/printers/${path}`, { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.result.message, 'Invalid request');
    assert.equal(res.body.result.content.message, message);
  }
  const printer = (await d.api('GET', `/printers/${path}`)).body.result.content;
  assert.equal(printer.dpi, undefined);
  assert.equal(printer.dither, undefined);
});

test('options.dither turns a flat grey area into a dot pattern where the threshold leaves it white', async () => {
  const grey = greyPagePdf(144, 72, 0.6);
  const threshold = await printLabel(grey);
  assert.equal(countBlack(threshold.bitmap), 0, 'a 60% grey is above the black threshold');
  const dithered = await printLabel(grey, { dither: true });
  assert.deepEqual([dithered.pw, dithered.ll], [threshold.pw, threshold.ll]);
  const share = blackShare(dithered);
  assert.ok(share > 0.3 && share < 0.5, `about 40% of the dots are black, got ${share}`);
  assert.equal(countBlack((await printLabel(grey, { dither: false })).bitmap), 0);
});

test('the printer dither setting applies to PDFs without the option; the job option wins over it', async () => {
  const grey = greyPagePdf(144, 72, 0.6);
  const patched = await d.api('PATCH', `/printers/${path}`, { body: { dither: true } });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.result.content.dither, true);
  try {
    assert.ok(countBlack((await printLabel(grey)).bitmap) > 0, 'dithered by the printer setting');
    assert.equal(countBlack((await printLabel(grey, { dither: false })).bitmap), 0, 'options.dither: false wins');
  } finally {
    await d.api('PATCH', `/printers/${path}`, { body: { dither: null } });
  }
  assert.equal(countBlack((await printLabel(grey)).bitmap), 0, 'null forgets the setting');
});

test('options.dither is a boolean; ZPL jobs ignore it', async () => {
  const bad = await d.api('POST', `/print/${path}`, { body: { content: '^XA^XZ', contentType: 'zpl', options: { dither: 1 } } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.result.content.message, 'options.dither must be a boolean');
  const zpl = await d.api('POST', `/print/${path}`, { body: { content: '^XA^FDx^FS^XZ', contentType: 'zpl', options: { dither: true } } });
  assert.equal(zpl.status, 200);
  assert.equal(emulator.jobs().at(-1)!.toString('latin1'), '^XA^FDx^FS^XZ');
});

test('renderWorkers round-trips through GET/PUT /settings (default: the CPU count), and PDFs print across changes', async () => {
  const defaultWorkers = Math.min(16, Math.max(1, os.availableParallelism()));
  assert.equal((await d.api('GET', '/settings')).body.result.content.renderWorkers, defaultWorkers);
  await printLabel(boxedPagePdf(144, 72));
  const put = await d.api('PUT', '/settings', { body: { renderWorkers: 1 } });
  assert.equal(put.status, 200);
  assert.equal(put.body.result.content.renderWorkers, 1);
  assert.equal((await d.api('GET', '/settings')).body.result.content.renderWorkers, 1);
  assert.equal(JSON.parse(readFileSync(join(d.dataDir, 'settings.json'), 'utf8')).renderWorkers, 1, 'persisted');
  const label = await printLabel(boxedPagePdf(288, 432));
  assert.deepEqual([label.pw, label.ll], [812, 1218]);
  // renders accepted around a change finish on whichever pool took them
  const jobs = Array.from({ length: 3 }, () => d.api('POST', `/print/${path}`, { body: { content: b64(boxedPagePdf(144, 72)), contentType: 'pdf_base64' } }));
  const changed = await d.api('PUT', '/settings', { body: { renderWorkers: 2 } });
  assert.equal(changed.status, 200);
  for (const res of await Promise.all(jobs)) assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual([(await printLabel(boxedPagePdf(144, 72))).pw], [406]);
  const reset = await d.api('PUT', '/settings', { body: { renderWorkers: null } });
  assert.equal(reset.body.result.content.renderWorkers, defaultWorkers);
  assert.equal('renderWorkers' in JSON.parse(readFileSync(join(d.dataDir, 'settings.json'), 'utf8')), false);
  await printLabel(boxedPagePdf(144, 72));
});

test('renderWorkers outside 1..16 is a 400 naming the field, and the setting is unchanged', async () => {
  const before = (await d.api('GET', '/settings')).body.result.content.renderWorkers;
  for (const renderWorkers of [0, 17, 2.5, 'four']) {
    const res = await d.api('PUT', '/settings', { body: { renderWorkers } });
    assert.equal(res.status, 400, String(renderWorkers));
    assert.equal(res.body.result.content.message, 'renderWorkers must be an integer >= 1 and <= 16 or null');
  }
  assert.equal((await d.api('GET', '/settings')).body.result.content.renderWorkers, before);
});
