// POST /preview/{target}: one page drawn by the print path (same render job, worker pool and dots) as a PNG; nothing reaches the printer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePng } from '../../src/render/png-decode';
import { code128Png } from '../fixtures/barcode-images';
import type { FakeUsbDevice } from '../fixtures/fake-usb';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { manyPagesPdf } from '../fixtures/pdf/hostile-pdf';
import type { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import type { InProcessDaemon } from '../helpers/in-process-daemon';
import { labelAndReceipt, RECEIPT } from '../helpers/label-and-receipt';
import { decodeLabels, dotAt } from '../render/zpl-label-decode';

const KEY = 'inproc-key-0123456789abcdef';
let d: InProcessDaemon;
let epson: FakeUsbDevice;
let zebra: ZplPrinterEmulator;
let label = '';
let stopAll: () => Promise<void>;

before(async () => {
  ({ d, epson, zebra, label, stop: stopAll } = await labelAndReceipt());
});

after(() => stopAll());

async function preview(target: string, body: unknown, query = ''): Promise<Response> {
  return fetch(`${d.baseUrl}/api/v1/preview/${encodeURIComponent(target)}${query}`, { method: 'POST', headers: { 'X-API-Key': KEY, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
}

test('a PDF previewed for the label printer is a PNG of exactly the dots the printed label carries; the preview prints nothing', async () => {
  const body = { contentType: 'pdf_base64', content: Buffer.from(await shippingLabelPdf()).toString('base64') };
  const res = await preview(label, body);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.equal(res.headers.get('x-page-count'), '1');
  const image = decodePng(new Uint8Array(await res.arrayBuffer()));
  assert.deepEqual([image.width, image.height], [812, 1218], '4x6 in at 203 dpi');
  assert.equal(zebra.jobs().length, 0, 'nothing was sent to the printer');

  const printed = await d.api('POST', `/print/${label}`, { body });
  assert.equal(printed.status, 200, JSON.stringify(printed.body));
  const [labelDots] = decodeLabels(zebra.jobs()[0].toString('latin1'));
  assert.deepEqual([labelDots.pw, labelDots.ll], [image.width, image.height], 'the label is as wide and long as the preview');
  let differ = 0;
  for (let y = 0; y < image.height; y += 1) for (let x = 0; x < image.width; x += 1) if (dotAt(labelDots.bitmap, x, y) !== (image.pixels[y * image.width + x] < 128)) differ += 1;
  assert.equal(differ, 0, 'every dot of the preview equals the printed label');
});

test('a PNG previewed for the receipt printer is 576 dots wide (72 mm at 203 dpi) and reaches no printer', async () => {
  const png = await code128Png('R-PNG-PREVIEW', 2);
  const before = epson.jobs.length;
  const res = await preview(RECEIPT, { contentType: 'image_base64', content: Buffer.from(png).toString('base64') });
  assert.equal(res.status, 200);
  const image = decodePng(new Uint8Array(await res.arrayBuffer()));
  assert.equal(image.width, 576);
  assert.equal(epson.jobs.length, before);
});

test('?page=N picks one page; a page past the end, ZPL and a bad page number are refused in words', async () => {
  const content = Buffer.from(manyPagesPdf(3)).toString('base64');
  const second = await preview(label, { contentType: 'pdf_base64', content }, '?page=2');
  assert.equal(second.status, 200);
  assert.equal(second.headers.get('x-page-count'), '3');
  const past = await preview(label, { contentType: 'pdf_base64', content }, '?page=4');
  assert.equal(past.status, 422);
  assert.match(((await past.json()) as any).result.content.message, /selects no page of a 3-page document/);
  const zpl = await preview(label, { contentType: 'zpl', content: '^XA^FO10,10^FDhi^FS^XZ' });
  assert.equal(zpl.status, 422);
  assert.match(((await zpl.json()) as any).result.content.message, /zpl data goes to the printer as it is/);
  const bad = await preview(label, { contentType: 'pdf_base64', content }, '?page=0');
  assert.equal(bad.status, 400);
  const noKey = await fetch(`${d.baseUrl}/api/v1/preview/${label}`, { method: 'POST', body: '{}' });
  assert.equal(noKey.status, 401);
  assert.equal(zebra.jobs().length, 1, 'only the earlier print reached the printer');
});

test('openapi.json documents the preview as image/png with its page query', async () => {
  const doc = (await d.api('GET', '/openapi.json')).body;
  const op = doc.paths['/preview/{target}'].post;
  assert.ok(op.responses['200'].content['image/png']);
  assert.ok(op.parameters.some((p: { name: string }) => p.name === 'page'));
  assert.ok(op.requestBody.content['application/json']);
});
