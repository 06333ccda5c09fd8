// The LabelWriter 550 series' job stream for tiny pages byte for byte, copies as indexed labels, and every label back dot for dot through a 550 emulator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MonoBitmap } from '../../../src/encoders/mono-bitmap';
import { dymo550EncoderWith } from '../../../src/languages/dymo/dymo-550-encoder';
import { dymoEncoderFor, dymoFamilyOf } from '../../../src/languages/dymo/dymo-family';
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

test('a 16 x 3 page: ESC s, ESC h, ESC C 100, ESC n 1, ESC D with its three rows (the blank one too), ESC G, ESC E, ESC Q', () => {
  const encoder = dymo550EncoderWith({ jobId: 0x01020304 })(1);
  encoder.addPage(page(16, [[0xff, 0x01], [0, 0], [0x80, 0x00]]));
  const expected = [
    0x1b, 0x73, 0x04, 0x03, 0x02, 0x01, // ESC s, job id little-endian
    0x1b, 0x68, 0x1b, 0x43, 100, // ESC h, ESC C 100 %
    0x1b, 0x6e, 1, 0, // ESC n 1
    0x1b, 0x44, 1, 2, 3, 0, 0, 0, 16, 0, 0, 0, // ESC D: 1 bpp, alignment 2, 3 lines, 16 dots
    0xff, 0x01, 0x00, 0x00, 0x80, 0x00, // the rows, unframed
    0x1b, 0x47, 0x1b, 0x45, 0x1b, 0x51, // ESC G, ESC E, ESC Q
  ];
  assert.deepEqual([...encoder.finish()], expected);
});

test('copies and pages: one job, labels indexed 1..4, each back as sent; the job ends', () => {
  const first = page(16, [[0xf0, 0x0f], [0x0f, 0xf0]]);
  const second = page(9, [[0x80, 0x80], [0, 0], [0, 0]]);
  const encoder = dymo550EncoderWith({ jobId: 7 })(2);
  encoder.addPage(first);
  encoder.addPage(second);
  const printer = new DymoPrinterEmulator({ model: '550' });
  printer.feed(encoder.finish());
  assert.deepEqual(printer.jobs, [{ id: 7, ended: true }]);
  assert.equal(printer.printed.length, 4);
  assert.deepEqual(printer.printed.map((l) => [l.jobId, l.labelIndex, l.feed]), [[7, 1, 'G'], [7, 2, 'G'], [7, 3, 'G'], [7, 4, 'G']]);
  for (const n of [0, 1]) assert.deepEqual(rowsOf(printer.printed[n].picture, 2), [[0xf0, 0x0f], [0x0f, 0xf0]]);
  for (const n of [2, 3]) {
    assert.deepEqual(rowsOf(printer.printed[n].picture, 2), [[0x80, 0x80], [0, 0], [0, 0]]);
    assert.deepEqual([printer.printed[n].bytesPerLine, printer.printed[n].labelLength], [2, 3]);
  }
  assert.equal(printer.labelsLeft, 246);
});

test('raster bytes that look like commands (ESC, ESC A) are print data, not commands', () => {
  const rows = [[0x1b, 0x41], [0x1b, 0x45], [0x16, 0x17]];
  const encoder = dymo550EncoderWith({ jobId: 1 })(1);
  encoder.addPage(page(16, rows));
  const printer = new DymoPrinterEmulator({ model: '550' });
  assert.equal(printer.feed(encoder.finish()).length, 0, 'no status reply');
  assert.equal(printer.statusAsked, 0);
  assert.deepEqual(rowsOf(printer.printed[0].picture, 2), rows);
});

test('600 dpi: each 2 x 2 dots become one (the 550 prints 300 x 300 only)', () => {
  const encoder = dymo550EncoderWith({ dpi: 600, jobId: 1 })(1);
  encoder.addPage(page(32, [[0xc0, 0x30, 0x00, 0x01], [0, 0, 0, 0], [0, 0, 0x80, 0]]));
  const printer = new DymoPrinterEmulator({ model: '550' });
  printer.feed(encoder.finish());
  const [label] = printer.printed;
  assert.deepEqual([label.bytesPerLine, label.labelLength], [2, 2]);
  assert.deepEqual(rowsOf(label.picture, 2), [[0x84, 0x01], [0x00, 0x80]]);
});

test('job ids: each encoder takes the next one; a page wider than the 5XL head is clipped to 1248 dots', () => {
  const ids = [0, 1].map(() => {
    const encoder = dymo550EncoderWith()(1);
    encoder.addPage(page(8, [[0xff]]));
    return Buffer.from(encoder.finish()).readUInt32LE(2);
  });
  assert.equal(ids[1], ids[0] + 1);
  const encoder = dymo550EncoderWith({ jobId: 1 })(1);
  encoder.addPage(page(1600, [new Array(200).fill(0xff)]));
  const printer = new DymoPrinterEmulator({ model: '550', wide: true });
  printer.feed(encoder.finish());
  assert.equal(printer.printed[0].bytesPerLine, 156);
});

test('the family: 550, 550 Turbo and 5XL models get the 550 job, others (and no model) the 450 raster', () => {
  for (const model of ['DYMO LabelWriter 550', 'LabelWriter 550 Turbo', 'DYMO LabelWriter 5XL']) assert.equal(dymoFamilyOf({ model }), '550', model);
  for (const model of ['DYMO LabelWriter 450', 'LabelWriter 450 Turbo', 'LabelWriter 4XL', undefined]) assert.equal(dymoFamilyOf({ model }), '450', String(model));
  const tiny = page(8, [[0xff]]);
  const first = (family: '450' | '550') => {
    const encoder = dymoEncoderFor(family, 300)(1);
    encoder.addPage(tiny);
    return [...encoder.finish().subarray(0, 2)];
  };
  assert.deepEqual(first('450'), [0x1b, 0x40], 'ESC @');
  assert.deepEqual(first('550'), [0x1b, 0x73], 'ESC s');
});
