// The EPL2 encoder: exact bytes of a small page (N, q, Q, inverted GW data, P1,copies), one label per page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MonoBitmap } from '../../../src/encoders/mono-bitmap';
import { epl2EncoderFor, epl2EncoderWith, graphicCommand, mmToDots } from '../../../src/languages/epl2/epl2-encoder';

/** A 10 x 2 dot page: row 0 all black, row 1 only the first dot black (bit set = black, MSB first). */
function smallPage(): MonoBitmap {
  return { width: 10, height: 2, bytesPerRow: 2, data: Uint8Array.of(0xff, 0xc0, 0x80, 0x00) };
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

test('a page becomes a line feed, N, q, Q with a 3 mm gap in dots, one GW with EPL2 bits (0 = black) and P1,copies', () => {
  const encoder = epl2EncoderFor(203)(3);
  encoder.addPage(smallPage());
  const expected = Buffer.concat([
    Buffer.from('\r\nN\r\nq10\r\nQ2,24\r\nGW0,0,2,2,', 'latin1'),
    // inverted: black dots are 0 bits, white (padding included) 1 bits
    Buffer.from([0x00, 0x3f, 0x7f, 0xff]),
    Buffer.from('\r\nP1,3\r\n', 'latin1'),
  ]);
  assert.deepEqual(Buffer.from(encoder.finish()), expected);
});

test('the gap follows the resolution and the options; continuous media has gap 0', () => {
  assert.equal(mmToDots(3, 203), 24);
  assert.equal(mmToDots(3, 300), 35);
  const at300 = epl2EncoderFor(300)(1);
  at300.addPage(smallPage());
  assert.match(latin1(at300.finish()), /\r\nQ2,35\r\n/);
  const continuous = epl2EncoderWith({ gapMm: 0 })(1);
  continuous.addPage(smallPage());
  assert.match(latin1(continuous.finish()), /\r\nQ2,0\r\n/);
});

test('every page is its own label with one GW, in page order, each printed `copies` times', () => {
  const encoder = epl2EncoderFor(203)(2);
  encoder.addPage({ width: 812, height: 1218, bytesPerRow: 102, data: new Uint8Array(102 * 1218) });
  encoder.addPage({ width: 406, height: 203, bytesPerRow: 51, data: new Uint8Array(51 * 203).fill(0xff) });
  const text = latin1(encoder.finish());
  assert.equal(text.split('\r\nN\r\n').length - 1, 2);
  assert.match(text, /^\r\nN\r\nq812\r\nQ1218,24\r\nGW0,0,102,1218,/);
  assert.ok(text.indexOf('GW0,0,102,1218,') < text.indexOf('q406\r\nQ203,24\r\nGW0,0,51,203,'));
  assert.equal(text.split('P1,2\r\n').length - 1, 2);
  assert.ok(text.endsWith('P1,2\r\n'));
});

test('GW data is bytes per row x rows bytes, each the inverse of the page byte', () => {
  const page: MonoBitmap = { width: 16, height: 3, bytesPerRow: 2, data: Uint8Array.of(0x00, 0xff, 0x0f, 0xf0, 0xaa, 0x55) };
  const cmd = graphicCommand(page);
  const head = Buffer.from('GW0,0,2,3,', 'latin1');
  assert.deepEqual(cmd.subarray(0, head.length), head);
  assert.deepEqual([...cmd.subarray(head.length, head.length + 6)], [0xff, 0x00, 0xf0, 0x0f, 0x55, 0xaa]);
  assert.equal(cmd.length, head.length + 6 + 2);
});
