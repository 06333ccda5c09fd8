// The shipping label PDF rendered by the project's pipeline at 300 dpi, encoded as LabelWriter raster, fed to a 4XL
// emulator: the same dots as the rendered page, and zxing reads its Code 128 and QR code from the emulator's picture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MonoBitmap } from '../../../src/encoders/mono-bitmap';
import { dymo450EncoderFor } from '../../../src/languages/dymo/dymo-encoder';
import { resolveRaster } from '../../../src/render/render-options';
import { shippingLabelPdf } from '../../fixtures/pdf/barcode-pdf';
import { DymoPrinterEmulator } from '../../fixtures/dymo-printer';
import { readLabelBarcodes } from '../../render/barcode-reader';
import { sharedRasterisers } from '../../render/pdfium-fixture';

/** The PDF's pages as the render pipeline makes them at 300 dpi, copied (the rasteriser reuses its buffers). */
async function renderPages(pdf: Uint8Array): Promise<MonoBitmap[]> {
  const rasterisers = await sharedRasterisers();
  const pages: MonoBitmap[] = [];
  rasterisers.pdf.rasterise(pdf, resolveRaster({ dpi: 300 }), (page) => void pages.push({ ...page, data: Uint8Array.from(page.data) }));
  return pages;
}

test('a 4x6 in shipping label at 300 dpi prints on a 4XL dot for dot, and its Code 128 and QR code read back', async () => {
  const [page] = await renderPages(await shippingLabelPdf());
  assert.deepEqual([page.width, page.height], [1200, 1800]);
  const encoder = dymo450EncoderFor(300)(1);
  encoder.addPage(page);
  const printer = new DymoPrinterEmulator({ model: '450', wide: true });
  printer.feed(encoder.finish());

  assert.equal(printer.printed.length, 1);
  const [label] = printer.printed;
  assert.equal(label.bytesPerLine, 150);
  assert.equal(label.labelLength, 1800);
  assert.equal(label.picture.height, 1800);
  for (let y = 0; y < page.height; y += 1) {
    const sent = page.data.subarray(y * page.bytesPerRow, (y + 1) * page.bytesPerRow);
    const got = label.picture.data.subarray(y * label.picture.bytesPerRow, y * label.picture.bytesPerRow + page.bytesPerRow);
    assert.deepEqual(got, sent, `row ${y}`);
  }
  const texts = (await readLabelBarcodes(label.picture, label.picture.width)).map((r) => `${r.format}:${r.text}`);
  assert.ok(texts.includes('Code128:1Z999AA10123456784'), `Code 128 not read, found ${texts.join(', ')}`);
  assert.ok(texts.includes('QRCode:https://example.com/t/1Z999AA10123456784'), `QR code not read, found ${texts.join(', ')}`);
});
