// The preview PNG: one pixel per dot, black where the bitmap is black, any width; the encoder keeps the first page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { monoPng, monoPngEncoder } from '../../src/encoders/mono-png';
import { decodePng } from '../../src/render/png-decode';
import { bitmapOf, noiseBitmap } from './encoder-fixtures';

function sameDots(png: Uint8Array, black: (x: number, y: number) => boolean, width: number, height: number): void {
  const image = decodePng(png);
  assert.deepEqual([image.width, image.height], [width, height]);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) assert.equal(image.pixels[y * width + x], black(x, y) ? 0 : 255, `pixel (${x},${y})`);
  }
}

test('every dot of a bitmap becomes one black or white pixel, at widths that do and do not fill the last byte', () => {
  for (const width of [1, 7, 8, 9, 203, 812]) {
    const bitmap = noiseBitmap(width, 13, width);
    const black = (x: number, y: number) => (bitmap.data[y * bitmap.bytesPerRow + (x >> 3)] & (0x80 >> (x & 7))) !== 0;
    sameDots(monoPng(bitmap), black, width, 13);
  }
});

test('the PNG is grey at bit depth 1: a 4x6 label of text-like content stays small', () => {
  const bitmap = bitmapOf(812, 1218, (x, y) => y % 40 < 4 && x > 20 && x < 790);
  const png = monoPng(bitmap);
  assert.equal(png[24], 1, 'bit depth 1');
  assert.equal(png[25], 0, 'colour type grey');
  assert.ok(png.length < 8_000, `${png.length} bytes`);
});

test('the encoder answers the first page it is given, whatever the copies', () => {
  const encoder = monoPngEncoder(3);
  const first = bitmapOf(16, 2, (x) => x < 8);
  encoder.addPage(first);
  encoder.addPage(bitmapOf(16, 2, () => true));
  sameDots(encoder.finish(), (x) => x < 8, 16, 2);
});
