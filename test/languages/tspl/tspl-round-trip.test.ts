// The shipping label PDF rendered by the project's pipeline, encoded to TSPL, sent over TCP to the TSPL emulator, read
// back as a picture: the same dots as the rendered page, and zxing decodes its Code 128 and QR code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tsplLabelEncoder } from '../../../src/languages/tspl/tspl-encoder';
import type { TcpTransport } from '../../../src/transports/tcp-transport';
import { shippingLabelPdf } from '../../fixtures/pdf/barcode-pdf';
import { TsplPrinterEmulator } from '../../fixtures/tspl-printer';
import { tsplOverTcp } from './tspl-over-tcp';
import { readLabelBarcodes } from '../../render/barcode-reader';
import { countBlack } from '../../render/zpl-label-decode';
import { renderPdfPages } from '../../render/pdfium-fixture';
import { patternedPages } from '../patterned-pages';

const printer = new TsplPrinterEmulator();
let transport: TcpTransport;

tsplOverTcp(printer, (t) => { transport = t; });

test('a rendered shipping label prints on the TSPL emulator with every dot in place, and its barcodes read back', async () => {
  const [page] = await renderPdfPages(await shippingLabelPdf());
  assert.equal(page.width, 812);
  assert.equal(page.height, 1218);
  const encoder = tsplLabelEncoder(2);
  encoder.addPage(page);
  await transport.send(encoder.finish());
  await printer.waitForLabels(1, 10_000);

  const [label] = printer.printed;
  assert.equal(label.size, '4,6');
  assert.equal(label.widthDots, 812);
  assert.equal(label.heightDots, 1218);
  assert.deepEqual(label.bitmaps, ['0,0,102,1218,0']);
  assert.equal(label.sets * label.copies, 2);
  assert.ok(countBlack(label.picture) > 10_000, 'the label has ink on it');
  assert.deepEqual(label.picture.data, page.data, 'the printed picture is the rendered page, dot for dot');

  const found = await readLabelBarcodes(label.picture, label.picture.width);
  const texts = found.map((r) => `${r.format}:${r.text}`);
  assert.ok(texts.includes('Code128:1Z999AA10123456784'), `Code 128 not read, found ${texts.join(', ')}`);
  assert.ok(texts.includes('QRCode:https://example.com/t/1Z999AA10123456784'), `QR code not read, found ${texts.join(', ')}`);
});

test('random pages of any width (padding bits included), several in one job, come back dot for dot as one label each', async () => {
  const pages = patternedPages();
  const encoder = tsplLabelEncoder(1);
  for (const page of pages) encoder.addPage(page);
  const before = printer.printed.length;
  await transport.send(encoder.finish());
  await printer.waitForLabels(before + pages.length, 10_000);
  pages.forEach((page, n) => {
    const label = printer.printed[before + n];
    assert.deepEqual([label.widthDots, label.heightDots], [page.width, page.height], `page ${n} size`);
    assert.deepEqual(label.picture.data, page.data, `page ${n} dots`);
  });
});
