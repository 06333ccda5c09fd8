// ESC/POS raster encoder: bitmaps → ESC @, GS v 0 bands of at most 255 rows, a partial cut with feed; decoded back identically.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ESCPOS_BAND_ROWS, escposRasterEncoder } from '../../../src/languages/escpos/escpos-raster';
import type { MonoBitmap } from '../../../src/encoders/mono-bitmap';
import { decodeEscposRaster } from '../../fixtures/escpos-raster-decode';
import { bitmapOf, noiseBitmap } from '../../encoders/encoder-fixtures';

function encode(pages: MonoBitmap[], copies = 1): Uint8Array {
  const encoder = escposRasterEncoder(copies);
  for (const page of pages) encoder.addPage(page);
  return encoder.finish();
}

test('a 576-dot page of 600 rows: ESC @, bands of 255, 255 and 90 rows, then GS V 66 with a feed; the dots come back identical', () => {
  const page = noiseBitmap(576, 600, 7);
  const { receipts, commands } = decodeEscposRaster(encode([page]));
  assert.deepEqual(commands, ['ESC @', 'GS v 0 72x255', 'GS v 0 72x255', 'GS v 0 72x90', 'GS V 66 16']);
  assert.equal(receipts.length, 1);
  assert.deepEqual([receipts[0].bytesPerRow, receipts[0].height], [72, 600]);
  assert.deepEqual(receipts[0].data, page.data);
});

test('property: any bitmap (any width, any height) round-trips through the bands', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 700 }), fc.integer({ min: 1, max: 800 }), fc.integer(), (width, height, seed) => {
      const page = noiseBitmap(width, height, seed);
      const { receipts, commands } = decodeEscposRaster(encode([page]));
      assert.deepEqual(receipts[0].data, page.data);
      assert.equal(receipts[0].bytesPerRow, page.bytesPerRow);
      const bands = commands.filter((c) => c.startsWith('GS v 0'));
      assert.equal(bands.length, Math.ceil(height / ESCPOS_BAND_ROWS));
    }),
    { numRuns: 40 },
  );
});

test('pages follow one another on one receipt; copies repeat the whole receipt, with one ESC @ before them', () => {
  const top = bitmapOf(384, 100, (x) => x < 10);
  const bottom = bitmapOf(384, 300, (x, y) => y % 2 === 0);
  const { receipts, commands } = decodeEscposRaster(encode([top, bottom], 3));
  assert.equal(commands.filter((c) => c === 'ESC @').length, 1);
  assert.equal(commands.filter((c) => c.startsWith('GS V')).length, 3);
  assert.equal(receipts.length, 3);
  const expected = new Uint8Array([...top.data, ...bottom.data]);
  for (const r of receipts) assert.deepEqual([r.height, r.data], [400, expected]);
});

test('a page may be reused by the caller once addPage returns', () => {
  const page = bitmapOf(64, 10, () => true);
  const encoder = escposRasterEncoder(1);
  encoder.addPage(page);
  page.data.fill(0);
  const [receipt] = decodeEscposRaster(encoder.finish()).receipts;
  assert.ok(receipt.data.every((b) => b === 0xff));
});

test('the test decoder refuses what it does not know', () => {
  assert.throws(() => decodeEscposRaster(Uint8Array.of(0x1b, 0x40, 0x1b, 0x21, 0x00)), /unknown ESC\/POS byte 0x1b at 2/);
  assert.throws(() => decodeEscposRaster(Uint8Array.of(0x1d, 0x76, 0x30, 0x00, 1, 0, 2, 0, 0xff)), /truncated/);
  assert.throws(() => decodeEscposRaster(Uint8Array.of(0x1d, 0x76, 0x30, 0x00, 1, 0, 1, 0, 0xff)), /never cut/);
});
