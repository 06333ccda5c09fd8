// The LabelWriter encoder's bytes for tiny pages, and every page back dot for dot through the emulator (SYN and ETB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MonoBitmap } from '../../../src/encoders/mono-bitmap';
import { dymo450EncoderFor, dymoEncoderWith } from '../../../src/languages/dymo/dymo-encoder';
import { compressedLine } from '../../../src/languages/dymo/dymo-raster-line';
import { DymoPrinterEmulator } from '../../fixtures/dymo-printer';

/** A page of `width` x `height` with rows given as bytes. */
function page(width: number, rows: number[][]): MonoBitmap {
  const bytesPerRow = Math.ceil(width / 8);
  return { width, height: rows.length, bytesPerRow, data: Uint8Array.from(rows.flat()) };
}

/** The first `width` bytes of each row of `picture`. */
function rowsOf(picture: MonoBitmap, width: number): number[][] {
  return Array.from({ length: picture.height }, (_, y) => [...picture.data.subarray(y * picture.bytesPerRow, y * picture.bytesPerRow + width)]);
}

test('a 16 x 3 page: reset, setup, a SYN line, a skipped blank line, a SYN line, then ESC E', () => {
  const encoder = dymo450EncoderFor(300)(1);
  encoder.addPage(page(16, [[0xff, 0x01], [0, 0], [0x80, 0x00]]));
  const expected = [
    0x1b, 0x40, // ESC @
    0x1b, 0x42, 0, 0x1b, 0x44, 2, 0x1b, 0x4c, 0, 3, 0x1b, 0x68, 0x1b, 0x65, // ESC B 0, ESC D 2, ESC L 0 3, ESC h, ESC e
    0x16, 0xff, 0x01, 0x1b, 0x66, 1, 1, 0x16, 0x80, 0x00, // SYN line, ESC f 1 1, SYN line
    0x1b, 0x45, // ESC E
  ];
  assert.deepEqual([...encoder.finish()], expected);
});

test('copies and pages: ESC G between labels, ESC E after the last; each label comes back as sent', () => {
  const first = page(16, [[0xf0, 0x0f], [0x0f, 0xf0]]);
  const second = page(9, [[0x80, 0x80], [0, 0], [0, 0]]);
  const encoder = dymo450EncoderFor(300)(2);
  encoder.addPage(first);
  encoder.addPage(second);
  const printer = new DymoPrinterEmulator({ model: '450' });
  printer.feed(encoder.finish());
  assert.equal(printer.printed.length, 4);
  assert.deepEqual(printer.printed.map((l) => l.feed), ['G', 'G', 'G', 'E']);
  for (const n of [0, 1]) assert.deepEqual(rowsOf(printer.printed[n].picture, 2), [[0xf0, 0x0f], [0x0f, 0xf0]]);
  for (const n of [2, 3]) {
    assert.deepEqual(rowsOf(printer.printed[n].picture, 2), [[0x80, 0x80], [0, 0], [0, 0]]);
    assert.equal(printer.printed[n].skipped, 2, 'trailing blank lines are skipped, not sent');
  }
});

test('ETB runs: colour in bit 7, length minus one below; a compressed label comes back dot for dot', () => {
  assert.deepEqual([...compressedLine(Uint8Array.of(0xff, 0x00))], [0x17, 0x87, 0x07]);
  assert.deepEqual([...compressedLine(new Uint8Array(20))], [0x17, 0x7f, 0x1f]);
  const rows = Array.from({ length: 40 }, (_, y) => Array.from({ length: 30 }, (_, x) => (x > 5 && x < 12 ? 0xff : x === y % 30 ? 0x3c : 0)));
  const encoder = dymoEncoderWith({ compress: true })(1);
  encoder.addPage(page(240, rows));
  const printer = new DymoPrinterEmulator({ model: '450' });
  printer.feed(encoder.finish());
  const [label] = printer.printed;
  assert.ok(label.etb > 0, 'some lines went compressed');
  assert.deepEqual(rowsOf(label.picture, 30), rows);
});

test('600 dpi: graphics mode (ESC i) and each pair of dots across becomes one', () => {
  const encoder = dymo450EncoderFor(600)(1);
  encoder.addPage(page(32, [[0xc0, 0x30, 0x00, 0x01]]));
  const printer = new DymoPrinterEmulator({ model: '450' });
  printer.feed(encoder.finish());
  const [label] = printer.printed;
  assert.equal(label.mode, 'graphics');
  assert.equal(label.bytesPerLine, 2);
  assert.deepEqual(rowsOf(label.picture, 2), [[0x84, 0x01]]);
});

test('a page wider than the widest head is clipped to 156 bytes per line', () => {
  const encoder = dymo450EncoderFor(300)(1);
  encoder.addPage(page(1600, [new Array(200).fill(0xff)]));
  const printer = new DymoPrinterEmulator({ model: '450', wide: true });
  printer.feed(encoder.finish());
  assert.equal(printer.printed[0].bytesPerLine, 156);
});
