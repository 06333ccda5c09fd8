// PNG row filters undone in wasm (one byte per pixel) against the PNG specification's definitions written out plainly,
// on random rows of every filter type and width (16-byte blocks and their tails); and a decoded image against the same
// pixels through the JS unfilter (an Adam7 file, which the wasm path does not take).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodePng } from '../../src/render/png-decode';
import { WasmUnfilter } from '../../src/render/png-unfilter-wasm';
import { encodePng } from '../fixtures/png-encode';

/** PNG 1.2 section 6 / 9: each filter's inverse, one byte per pixel, the row above the first all zeros. */
function reference(filtered: Uint8Array, rb: number, rows: number): Uint8Array {
  const out = new Uint8Array(rb * rows);
  for (let y = 0; y < rows; y += 1) {
    const type = filtered[y * (rb + 1)];
    for (let x = 0; x < rb; x += 1) {
      const raw = filtered[y * (rb + 1) + 1 + x];
      const a = x > 0 ? out[y * rb + x - 1] : 0;
      const b = y > 0 ? out[(y - 1) * rb + x] : 0;
      const c = x > 0 && y > 0 ? out[(y - 1) * rb + x - 1] : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const predictor = [0, a, b, Math.floor((a + b) / 2), pa <= pb && pa <= pc ? a : pb <= pc ? b : c][type];
      out[y * rb + x] = (raw + predictor) & 0xff;
    }
  }
  return out;
}

const rowsCase = fc.record({
  rb: fc.integer({ min: 1, max: 70 }),
  types: fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 6 }),
  seed: fc.integer(),
  flat: fc.boolean(),
});

test('wasm unfilter: the same bytes as the specification for every filter type, width and row count', () => {
  const wasm = WasmUnfilter.create();
  assert.ok(wasm, 'the shipped runtime runs the module');
  fc.assert(
    fc.property(rowsCase, ({ rb, types, seed, flat }) => {
      const filtered = new Uint8Array(types.length * (rb + 1));
      let s = seed;
      for (let y = 0; y < types.length; y += 1) {
        filtered[y * (rb + 1)] = types[y];
        for (let x = 0; x < rb; x += 1) {
          s = (Math.imul(s, 1103515245) + 12345) | 0;
          // random bytes, or a few values (small residuals, as real images filter to)
          filtered[y * (rb + 1) + 1 + x] = flat ? [0, 0, 1, 255][(s >>> 16) & 3] : (s >>> 16) & 0xff;
        }
      }
      const got = wasm.unfilter(filtered, rb, types.length);
      assert.ok(got instanceof Uint8Array, `stopped at row ${String(got)}`);
      assert.deepEqual([...got], [...reference(filtered, rb, types.length)]);
    }),
    { numRuns: 500 },
  );
});

test('wasm unfilter: an unknown filter type stops at its row', () => {
  const wasm = WasmUnfilter.create()!;
  const filtered = Uint8Array.from([0, 1, 2, 3, 1, 9, 9, 9, 5, 1, 1, 1]);
  assert.equal(wasm.unfilter(filtered, 3, 3), 2);
});

test('an 8-bit grey PNG decodes to the same pixels through wasm (one pass) as through JS (Adam7), all filter types', () => {
  const samples = (x: number, y: number) => [(x * 37 + y * 11 + ((x * y) % 7) * 29) & 0xff];
  for (const [width, height] of [[1, 1], [16, 3], [17, 9], [100, 40]]) {
    const plain = decodePng(encodePng({ width, height, colorType: 0, bitDepth: 8, samples }));
    const adam7 = decodePng(encodePng({ width, height, colorType: 0, bitDepth: 8, samples, interlace: true }));
    assert.deepEqual([...plain.pixels], [...adam7.pixels], `${width}x${height}`);
    assert.deepEqual([...plain.pixels].slice(0, 3), [0, 1, 2].map((x) => samples(x, 0)[0]).slice(0, Math.min(3, width)));
  }
});
