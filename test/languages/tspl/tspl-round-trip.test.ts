// The shipping label PDF rendered by the project's pipeline, encoded to TSPL, sent over TCP to the TSPL emulator, read
// back as a picture: the same dots as the rendered page, and zxing decodes its Code 128 and QR code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MonoBitmap } from '../../../src/encoders/mono-bitmap';
import { tsplLabelEncoder } from '../../../src/languages/tspl/tspl-encoder';
import { resolveRaster } from '../../../src/render/render-options';
import type { TcpTransport } from '../../../src/transports/tcp-transport';
import { shippingLabelPdf } from '../../fixtures/pdf/barcode-pdf';
import { TsplPrinterEmulator } from '../../fixtures/tspl-printer';
import { tsplOverTcp } from './tspl-over-tcp';
import { readLabelBarcodes } from '../../render/barcode-reader';
import { countBlack } from '../../render/zpl-label-decode';
import { sharedRasterisers } from '../../render/pdfium-fixture';

const printer = new TsplPrinterEmulator();
let transport: TcpTransport;

tsplOverTcp(printer, (t) => { transport = t; });

/** The PDF's pages as the render pipeline makes them at 203 dpi, copied (the rasteriser reuses its buffers). */
async function renderPages(pdf: Uint8Array): Promise<MonoBitmap[]> {
  const rasterisers = await sharedRasterisers();
  const pages: MonoBitmap[] = [];
  rasterisers.pdf.rasterise(pdf, resolveRaster({ dpi: 203 }), (page) => void pages.push({ ...page, data: Uint8Array.from(page.data) }));
  return pages;
}

test('a rendered shipping label prints on the TSPL emulator with every dot in place, and its barcodes read back', async () => {
  const [page] = await renderPages(await shippingLabelPdf());
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
  const sizes: Array<[number, number]> = [[13, 7], [203, 101], [406, 2], [1, 1], [812, 40]];
  const pages: MonoBitmap[] = sizes.map(([width, height], n) => {
    const bytesPerRow = (width + 7) >> 3;
    const data = new Uint8Array(bytesPerRow * height);
    for (let i = 0; i < data.length; i += 1) data[i] = (i * 131 + n * 71 + 17) & 0xff;
    // MonoBitmap keeps the bits past the width clear
    if (width & 7) for (let row = 0; row < height; row += 1) data[row * bytesPerRow + bytesPerRow - 1] &= (0xff << (8 - (width & 7))) & 0xff;
    return { width, height, bytesPerRow, data };
  });
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
