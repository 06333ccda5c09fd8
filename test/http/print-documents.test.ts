// PDFs and pictures through the whole daemon: to an emulated ESC/POS USB receipt printer and to the ZPL emulator on TCP,
// decoded back from the bytes the printers received, with their barcodes read.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';
import { decodePng } from '../../src/render/png-decode';
import { code128Jpeg, code128Png } from '../fixtures/barcode-images';
import { decodeEscposRaster } from '../fixtures/escpos-raster-decode';
import type { FakeUsbDevice } from '../fixtures/fake-usb';
import { receiptPdf } from '../fixtures/pdf/receipt-pdf';
import type { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import type { InProcessDaemon } from '../helpers/in-process-daemon';
import { labelAndReceipt, RECEIPT } from '../helpers/label-and-receipt';
import { readLabelBarcodes } from '../render/barcode-reader';
import { decodeLabels, dotAt } from '../render/zpl-label-decode';

let d: InProcessDaemon;
let epson: FakeUsbDevice;
let zebra: ZplPrinterEmulator;
let label = '';
let stopAll: () => Promise<void>;

before(async () => {
  ({ d, epson, zebra, label, stop: stopAll } = await labelAndReceipt());
});

after(() => stopAll());

async function codes(bitmap: MonoBitmap, width = bitmap.width): Promise<string[]> {
  return (await readLabelBarcodes(bitmap, width)).filter((r) => r.isValid).map((r) => `${r.format}:${r.text}`);
}

async function print(path: string, body: Record<string, unknown>): Promise<void> {
  const res = await d.api('POST', `/print/${path}`, { body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.result.content.state, 'completed');
}

test('a PDF to an ESC/POS USB printer arrives as a 72 mm (576-dot) raster receipt, cut, and its Code 128 reads', async () => {
  const pdf = await receiptPdf('R-PDF-0001', 120);
  await print(RECEIPT, { contentType: 'pdf_base64', content: Buffer.from(pdf).toString('base64') });
  const { receipts, commands } = decodeEscposRaster(epson.lastJob()!);
  assert.equal(receipts.length, 1);
  assert.equal(receipts[0].width, 576);
  assert.match(commands.at(-1)!, /^GS V /, 'the receipt is cut');
  assert.deepEqual(await codes(receipts[0]), ['Code128:R-PDF-0001']);
});

test('a PNG to an ESC/POS USB printer prints 1:1 at the left: the very same dots, and its Code 128 reads', async () => {
  const png = await code128Png('R-PNG-0002', 2);
  const image = decodePng(png);
  await print(RECEIPT, { contentType: 'image_base64', content: Buffer.from(png).toString('base64') });
  const [receipt] = decodeEscposRaster(epson.lastJob()!).receipts;
  assert.equal(receipt.width, 576);
  assert.ok(receipt.height >= image.height);
  for (let y = 0; y < receipt.height; y += 1) {
    for (let x = 0; x < receipt.width; x += 1) {
      const inImage = x < image.width && y < image.height;
      assert.equal(dotAt(receipt, x, y), inImage && image.pixels[y * image.width + x] < 128, `dot (${x},${y})`);
    }
  }
  assert.deepEqual(await codes(receipt), ['Code128:R-PNG-0002']);
});

test('raw bytes to the same receipt printer still pass untouched', async () => {
  const bytes = Buffer.from([0x1b, 0x40, 0x48, 0x69, 0x0a, 0x1d, 0x56, 0x01]);
  const res = await d.api('POST', `/print/${RECEIPT}`, { raw: bytes });
  assert.equal(res.status, 200);
  assert.deepEqual(epson.lastJob(), bytes);
});

test('a PNG to the ZPL emulator is a ^GFA label with the very same dots, and its Code 128 reads', async () => {
  const png = await code128Png('L-PNG-0003');
  const image = decodePng(png);
  await print(label, { contentType: 'image_base64', content: Buffer.from(png).toString('base64') });
  const [decoded] = decodeLabels(zebra.jobs().at(-1)!.toString());
  assert.equal(decoded.pw, image.width);
  for (let y = 0; y < image.height; y += 1) {
    for (let x = 0; x < image.width; x += 1) assert.equal(dotAt(decoded.bitmap, x, y), image.pixels[y * image.width + x] < 128, `dot (${x},${y})`);
  }
  assert.deepEqual(await codes(decoded.bitmap, decoded.pw), ['Code128:L-PNG-0003']);
});

test('a JPEG sent as an octet-stream body is recognised by its magic bytes and reaches the ZPL emulator as a label that reads', async () => {
  const jpeg = await code128Jpeg('L-JPG-0004');
  const res = await d.api('POST', `/print/${label}`, { raw: Buffer.from(jpeg) });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const labels = decodeLabels(zebra.jobs().at(-1)!.toString());
  assert.equal(labels.length, 1);
  assert.deepEqual(await codes(labels[0].bitmap, labels[0].pw), ['Code128:L-JPG-0004']);
});
