// The shipping label PDF rendered by the project's pipeline at 300 dpi, encoded as 450 raster for a 4XL and as a 550 job
// for a 5XL and (fitted to a 2.125 in label) a 550: the same dots as the rendered page, and zxing reads its Code 128 and
// QR code from the emulator's picture.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MonoBitmap } from '../../../src/encoders/mono-bitmap';
import { dymo450EncoderFor } from '../../../src/languages/dymo/dymo-encoder';
import { dymoEncoderFor } from '../../../src/languages/dymo/dymo-family';
import { shippingLabelPdf } from '../../fixtures/pdf/barcode-pdf';
import { DymoPrinterEmulator } from '../../fixtures/dymo-printer';
import { readLabelBarcodes } from '../../render/barcode-reader';
import { renderPdfPages } from '../../render/pdfium-fixture';

/** Asserts every row of `page` came back in `picture`'s first bytes, then returns the barcodes zxing reads from it. */
async function sameDotsAndBarcodes(page: MonoBitmap, picture: MonoBitmap): Promise<string[]> {
  assert.equal(picture.height, page.height);
  for (let y = 0; y < page.height; y += 1) {
    const sent = page.data.subarray(y * page.bytesPerRow, (y + 1) * page.bytesPerRow);
    const got = picture.data.subarray(y * picture.bytesPerRow, y * picture.bytesPerRow + page.bytesPerRow);
    assert.deepEqual(got, sent, `row ${y}`);
  }
  return (await readLabelBarcodes(picture, picture.width)).map((r) => `${r.format}:${r.text}`);
}

const CODE_128 = 'Code128:1Z999AA10123456784';
const QR_CODE = 'QRCode:https://example.com/t/1Z999AA10123456784';

test('a 4x6 in shipping label at 300 dpi prints on a 4XL dot for dot, and its Code 128 and QR code read back', async () => {
  const [page] = await renderPdfPages(await shippingLabelPdf(), { dpi: 300 });
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

test('the same label as a 550 job prints on a 5XL dot for dot, one job of one label, and both codes read back', async () => {
  const [page] = await renderPdfPages(await shippingLabelPdf(), { dpi: 300 });
  const encoder = dymoEncoderFor('550', 300)(1);
  encoder.addPage(page);
  const printer = new DymoPrinterEmulator({ model: '550', wide: true });
  printer.feed(encoder.finish());
  assert.equal(printer.printed.length, 1);
  assert.deepEqual(printer.jobs.map((j) => j.ended), [true]);
  const [label] = printer.printed;
  assert.deepEqual([label.bytesPerLine, label.labelLength, label.labelIndex], [150, 1800, 1]);
  const texts = await sameDotsAndBarcodes(page, label.picture);
  assert.ok(texts.includes(CODE_128) && texts.includes(QR_CODE), `found ${texts.join(', ')}`);
});

test('fitted to a 2.125 x 4 in label it prints on a 550 (672-dot head) dot for dot, and both codes read back', async () => {
  const [page] = await renderPdfPages(await shippingLabelPdf(), { dpi: 300, paperSize: 'oe_shipping-label_2.125x4in', fitToPage: true });
  assert.ok(page.width <= 672, `${page.width} dots fit the head`);
  const encoder = dymoEncoderFor('550', 300)(1);
  encoder.addPage(page);
  const printer = new DymoPrinterEmulator({ model: '550' });
  printer.feed(encoder.finish());
  assert.equal(printer.printed.length, 1);
  const texts = await sameDotsAndBarcodes(page, printer.printed[0].picture);
  assert.ok(texts.includes(CODE_128) && texts.includes(QR_CODE), `found ${texts.join(', ')}`);
});
