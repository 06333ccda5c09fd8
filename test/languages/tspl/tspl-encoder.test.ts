// The TSPL encoder: exact bytes of a small page (header, inverted BITMAP data, PRINT copies), one label per page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MonoBitmap } from '../../../src/encoders/mono-bitmap';
import { bitmapCommand, inchesText, tsplEncoderWith, tsplLabelEncoder } from '../../../src/languages/tspl/tspl-encoder';

/** A 10 x 2 dot page: row 0 all black, row 1 only the first dot black (bit set = black, MSB first). */
function smallPage(): MonoBitmap {
  return { width: 10, height: 2, bytesPerRow: 2, data: Uint8Array.of(0xff, 0xc0, 0x80, 0x00) };
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

test('a page becomes SIZE/GAP/DENSITY/DIRECTION/CLS, one BITMAP mode 0 with TSPL bits (0 = black) and PRINT 1,copies', () => {
  const encoder = tsplEncoderWith({ dpi: 10 })(3);
  encoder.addPage(smallPage());
  const out = encoder.finish();
  const expected = Buffer.concat([
    Buffer.from('SIZE 1,0.2\r\nGAP 3 mm,0 mm\r\nDENSITY 8\r\nDIRECTION 1\r\nCLS\r\nBITMAP 0,0,2,2,0,', 'latin1'),
    // inverted: black dots are 0 bits, white (padding included) 1 bits
    Buffer.from([0x00, 0x3f, 0x7f, 0xff]),
    Buffer.from('\r\nPRINT 1,3\r\n', 'latin1'),
  ]);
  assert.deepEqual(Buffer.from(out), expected);
});

test('every page is its own label with one BITMAP, in page order, each printed `copies` times', () => {
  const encoder = tsplLabelEncoder(2);
  const a: MonoBitmap = { width: 812, height: 1218, bytesPerRow: 102, data: new Uint8Array(102 * 1218) };
  const b: MonoBitmap = { width: 406, height: 203, bytesPerRow: 51, data: new Uint8Array(51 * 203).fill(0xff) };
  encoder.addPage(a);
  encoder.addPage(b);
  const text = latin1(encoder.finish());
  assert.equal(text.split('BITMAP ').length - 1, 2);
  assert.equal(text.split('CLS\r\n').length - 1, 2);
  assert.match(text, /^SIZE 4,6\r\n/);
  assert.match(text, /SIZE 2,1\r\n/);
  assert.ok(text.indexOf('BITMAP 0,0,102,1218,0,') < text.indexOf('BITMAP 0,0,51,203,0,'));
  assert.equal(text.split('PRINT 1,2\r\n').length - 1, 2);
  assert.ok(text.endsWith('PRINT 1,2\r\n'));
});

test('BITMAP data is width bytes x height bytes, each the inverse of the page byte', () => {
  const page: MonoBitmap = { width: 16, height: 3, bytesPerRow: 2, data: Uint8Array.of(0x00, 0xff, 0x0f, 0xf0, 0xaa, 0x55) };
  const cmd = bitmapCommand(page);
  const head = Buffer.from('BITMAP 0,0,2,3,0,', 'latin1');
  assert.deepEqual(cmd.subarray(0, head.length), head);
  assert.deepEqual([...cmd.subarray(head.length, head.length + 6)], [0xff, 0x00, 0xf0, 0x0f, 0x55, 0xaa]);
  assert.equal(cmd.length, head.length + 6 + 2);
});

test('sizes are written in inches with at most 3 decimals', () => {
  assert.equal(inchesText(812, 203), '4');
  assert.equal(inchesText(1218, 203), '6');
  assert.equal(inchesText(457, 203), '2.251');
  assert.equal(inchesText(1200, 300), '4');
  assert.equal(inchesText(799, 203), '3.936');
});

test('options override the defaults: density, gap, direction', () => {
  const encoder = tsplEncoderWith({ density: 12, gapMm: 0, direction: 0 })(1);
  encoder.addPage(smallPage());
  const text = latin1(encoder.finish());
  assert.match(text, /\r\nGAP 0 mm,0 mm\r\nDENSITY 12\r\nDIRECTION 0\r\nCLS\r\n/);
  assert.match(text, /PRINT 1,1\r\n$/);
});
