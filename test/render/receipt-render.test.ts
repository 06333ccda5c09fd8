// PDFs and pictures to ESC/POS raster receipts through the real worker pool: width fitting, length, copies, barcodes read back.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { silentLogger } from '../../src/log';
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';
import { decodePng } from '../../src/render/png-decode';
import { RenderPool } from '../../src/render/render-pool';
import type { RenderOutput } from '../../src/render/render-job';
import { code128Jpeg, code128Png } from '../fixtures/barcode-images';
import { decodeEscposRaster } from '../fixtures/escpos-raster-decode';
import { monoPng } from '../fixtures/png-encode';
import { receiptPdf } from '../fixtures/pdf/receipt-pdf';
import { boxedPagePdf } from '../fixtures/pdf/hostile-pdf';
import { blackBox } from './bitmap-probe';
import { readLabelBarcodes } from './barcode-reader';
import { pdfiumWasm } from './pdfium-fixture';
import { escposJob } from './render-jobs';
import { dotAt } from './zpl-label-decode';

const pool = new RenderPool({
  size: 1, maxQueue: 8, jobTimeoutMs: 20_000, wasm: pdfiumWasm(), logger: silentLogger,
  worker: { kind: 'file', path: join(__dirname, '..', '..', 'src', 'render', 'render-worker.ts') },
});
after(() => pool.close());

function receipts(output: RenderOutput): MonoBitmap[] {
  return decodeEscposRaster(output.bytes).receipts;
}

async function codes(bitmap: MonoBitmap): Promise<string[]> {
  return (await readLabelBarcodes(bitmap, bitmap.width)).filter((r) => r.isValid).map((r) => `${r.format}:${r.text}`);
}

test('an 80 mm PDF receipt becomes one 576-dot-wide raster receipt, its length following the page, and its Code 128 reads', async () => {
  const output = await pool.render(escposJob(await receiptPdf('R20261124004217', 160), 'pdf'));
  assert.deepEqual([output.pages, output.widthDots, output.heightDots], [1, 576, 1152]);
  const { receipts: [receipt], commands } = decodeEscposRaster(output.bytes);
  assert.deepEqual([commands[0], commands.at(-1)], ['ESC @', 'GS V 66 16']);
  assert.ok(commands.slice(1, -1).every((c) => /^GS v 0 72x\d+$/.test(c) && Number(c.split('x')[1]) <= 255), commands.join(', '));
  assert.deepEqual([receipt.width, receipt.height], [576, 1152]);
  assert.deepEqual(await codes(receipt), ['Code128:R20261124004217']);
});

test('PDF pages always take the full printable width: a 2 in page on 58 mm paper (384 dots) is scaled up', async () => {
  const output = await pool.render(escposJob(boxedPagePdf(144, 72), 'pdf', 384));
  const [receipt] = receipts(output);
  assert.deepEqual([receipt.width, receipt.height, blackBox(receipt)], [384, 192, [0, 0, 383, 191]]);
});

test('a PNG narrower than the paper prints 1:1 at the left; its Code 128 reads; copies repeat the receipt', async () => {
  const png = await code128Png('RCPT-PNG-11');
  const image = decodePng(png);
  assert.ok(image.width < 576, `fixture is ${image.width} px wide`);
  const all = receipts(await pool.render(escposJob(png, 'png', 576, { copies: 2 })));
  assert.equal(all.length, 2);
  const [receipt] = all;
  assert.deepEqual([receipt.width, receipt.height], [576, image.height]);
  for (let y = 0; y < image.height; y += 1) for (let x = 0; x < image.width; x += 1) assert.equal(dotAt(receipt, x, y), image.pixels[y * image.width + x] < 128);
  assert.equal(blackBox(receipt)![2] < image.width, true, 'nothing right of the image');
  assert.deepEqual(await codes(receipt), ['Code128:RCPT-PNG-11']);
  assert.deepEqual(all[1].data, receipt.data);
});

test('a PNG wider than the paper is scaled down to the printable width and still reads; fitToPage scales a narrow one up', async () => {
  const wide = await code128Png('RCPT-WIDE-2026', 6);
  const image = decodePng(wide);
  assert.ok(image.width > 576, `fixture is ${image.width} px wide`);
  const [shrunk] = receipts(await pool.render(escposJob(wide, 'png')));
  assert.deepEqual([shrunk.width, shrunk.height], [576, Math.round((image.height * 576) / image.width)]);
  assert.deepEqual(await codes(shrunk), ['Code128:RCPT-WIDE-2026']);
  const [grown] = receipts(await pool.render(escposJob(monoPng(96, 20, () => true), 'png', 576, { fitToPage: true })));
  assert.deepEqual([grown.height, blackBox(grown)], [120, [0, 0, 575, 119]]);
});

test('a JPEG receipt image reads back too', async () => {
  const [receipt] = receipts(await pool.render(escposJob(await code128Jpeg('RCPT-JPG-5'), 'jpeg')));
  assert.deepEqual(await codes(receipt), ['Code128:RCPT-JPG-5']);
});

test('a page that would be absurdly long on the receipt fails with RENDER_FAILED instead of exhausting memory', async () => {
  await assert.rejects(pool.render(escposJob(boxedPagePdf(36, 14_000), 'pdf')), /a page would be 224000 dots long on the receipt, more than the limit of 30000/);
  await assert.rejects(pool.render(escposJob(boxedPagePdf(144, 72), 'pdf', 5)), /widthDots must be an integer from 8 to 4096, got 5/);
});
