// Grey → dots: the word path and the byte path agree with a per-pixel reference; dithering keeps mean darkness.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { blankMono, ditherInto, thresholdAligned, type GreySource } from '../../src/render/mono';
import { countBlack, dotAt } from './zpl-label-decode';

function reference(grey: GreySource, width: number, height: number, threshold: number): boolean[] {
  const out: boolean[] = [];
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) out.push(y < grey.height && x < grey.width && grey.src[grey.offset + y * grey.stride + x] < threshold);
  return out;
}

function dots(bmp: ReturnType<typeof blankMono>): boolean[] {
  const out: boolean[] = [];
  for (let y = 0; y < bmp.height; y += 1) for (let x = 0; x < bmp.width; x += 1) out.push(dotAt(bmp, x, y));
  return out;
}

const greyCase = fc.record({
  width: fc.integer({ min: 1, max: 100 }),
  height: fc.integer({ min: 1, max: 6 }),
  pad: fc.constantFrom(0, 1, 3, 4, 8),
  offset: fc.constantFrom(0, 1, 4, 8),
  threshold: fc.constantFrom(128, 128, 1, 200, 255),
  seed: fc.integer(),
  palette: fc.constantFrom('any', 'crisp', 'sparse'),
  stale: fc.boolean(),
});

test('thresholdAligned matches the per-pixel rule for any size, stride, alignment and threshold', () => {
  fc.assert(
    fc.property(greyCase, (c) => {
      const stride = c.width + c.pad;
      const src = new Uint8Array(c.offset + stride * c.height);
      let s = c.seed;
      for (let i = 0; i < src.length; i += 1) {
        s = (Math.imul(s, 1103515245) + 12345) | 0;
        const r = (s >>> 16) & 255;
        src[i] = c.palette === 'crisp' ? (r & 1 ? 255 : 0) : c.palette === 'sparse' ? (r < 4 ? r : 255) : r;
      }
      const grey = { src, offset: c.offset, stride, width: c.width, height: c.height };
      const dst = blankMono(c.width, c.height);
      // a bitmap reused from an earlier page: every dot must be written, white ones too
      if (c.stale) dst.data.fill(0xff);
      thresholdAligned(dst, grey, c.threshold);
      assert.deepEqual(dots(dst), reference(grey, c.width, c.height, c.threshold));
    }),
    { numRuns: 300 },
  );
});

test('a grey block larger than the label is clipped to it; a smaller one leaves the rest white', () => {
  const big = { src: new Uint8Array(20 * 10), offset: 0, stride: 20, width: 20, height: 10 };
  const clipped = blankMono(12, 4);
  thresholdAligned(clipped, big);
  assert.equal(countBlack(clipped), 12 * 4);
  const small = { src: new Uint8Array(4 * 4), offset: 0, stride: 4, width: 4, height: 4 };
  const roomy = blankMono(16, 8);
  thresholdAligned(roomy, small);
  assert.equal(countBlack(roomy), 4 * 4);
  assert.ok(dotAt(roomy, 3, 3) && !dotAt(roomy, 4, 3) && !dotAt(roomy, 3, 4));
});

test('ditherInto places the block at an offset and clips at the edges', () => {
  const src = new Uint8Array(4 * 4);
  const dst = blankMono(6, 5);
  ditherInto(dst, { src, offset: 0, stride: 4, width: 4, height: 4 }, 4, 3);
  assert.equal(countBlack(dst), 2 * 2);
  assert.ok(dotAt(dst, 4, 3) && dotAt(dst, 5, 4) && !dotAt(dst, 3, 3));
});

test('dithering a flat 25% grey gives about a quarter black dots; the threshold gives none', () => {
  const width = 64;
  const height = 64;
  const src = new Uint8Array(width * height).fill(191);
  const grey = { src, offset: 0, stride: width, width, height };
  const dithered = blankMono(width, height);
  ditherInto(dithered, grey, 0, 0);
  const share = countBlack(dithered) / (width * height);
  assert.ok(share > 0.2 && share < 0.3, `black share ${share}`);
  const thresholded = blankMono(width, height);
  thresholdAligned(thresholded, grey);
  assert.equal(countBlack(thresholded), 0);
});

test('dithering keeps pure black and white exactly', () => {
  const src = new Uint8Array(16 * 2);
  src.fill(255, 0, 16);
  const dst = blankMono(16, 2);
  ditherInto(dst, { src, offset: 0, stride: 16, width: 16, height: 2 }, 0, 0);
  assert.deepEqual(Array.from(dst.data), [0, 0, 255, 255]);
});
