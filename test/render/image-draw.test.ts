// Drawing a picture on the canvas: every placement (offsets, clipping, scale, quarter turns) puts at each dot the source pixel under its centre.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { GreyImage } from '../../src/render/grey-image';
import { drawImage } from '../../src/render/image-draw';
import type { PagePlacement } from '../../src/render/label-geometry';
import type { GreySource } from '../../src/render/mono';

/** A picture whose every pixel differs from its neighbours (0..250), so a dot read from the wrong pixel shows. */
function picture(width: number, height: number, seed: number): GreyImage {
  const pixels = new Uint8Array(width * height);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 37 + seed) % 251;
  return { width, height, pixels, dpi: null };
}

/** The dot at (x, y) of the canvas by the definition: the source pixel under the dot's centre, turned as pdfium turns pages; 255 off the picture. */
function expectedDot(image: GreyImage, place: PagePlacement, x: number, y: number): number {
  const u = x - place.x;
  const v = y - place.y;
  if (u < 0 || v < 0 || u >= place.width || v >= place.height) return 255;
  const odd = place.rotate % 2 === 1;
  const along = (i: number, n: number, size: number) => Math.min(size - 1, Math.floor(((i + 0.5) * size) / n));
  const a = along(u, place.width, odd ? image.height : image.width);
  const b = along(v, place.height, odd ? image.width : image.height);
  const [sx, sy] = [[a, b], [b, image.height - 1 - a], [image.width - 1 - a, image.height - 1 - b], [image.width - 1 - b, a]][place.rotate];
  return image.pixels[sy * image.width + sx];
}

function canvas(width: number, height: number, pad: number, offset: number): GreySource {
  const stride = width + pad;
  return { src: new Uint8Array(offset + stride * height).fill(255), offset, stride, width, height };
}

test('every dot of the canvas is the source pixel under its centre, for any placement, clipping, scale, turn and row padding', () => {
  fc.assert(
    fc.property(
      fc.record({
        w: fc.integer({ min: 1, max: 24 }), h: fc.integer({ min: 1, max: 24 }),
        cw: fc.integer({ min: 1, max: 30 }), ch: fc.integer({ min: 1, max: 30 }),
        x: fc.integer({ min: -12, max: 12 }), y: fc.integer({ min: -12, max: 12 }),
        // same size across (the unrotated row-copy case) as often as a scaled one
        scaleAcross: fc.constantFrom(1, 1, 0.5, 2, 1.5), scaleDown: fc.constantFrom(1, 0.5, 2),
        rotate: fc.constantFrom(0, 0, 1, 2, 3), pad: fc.constantFrom(0, 3), offset: fc.constantFrom(0, 5), seed: fc.integer({ min: 0, max: 250 }),
      }),
      (c) => {
        const image = picture(c.w, c.h, c.seed);
        const odd = c.rotate % 2 === 1;
        const place = { x: c.x, y: c.y, width: Math.max(1, Math.round((odd ? c.h : c.w) * c.scaleAcross)), height: Math.max(1, Math.round((odd ? c.w : c.h) * c.scaleDown)), rotate: c.rotate as PagePlacement['rotate'] };
        const grey = canvas(c.cw, c.ch, c.pad, c.offset);
        drawImage(grey, image, place, false);
        for (let y = 0; y < c.ch; y += 1) {
          for (let x = 0; x < c.cw; x += 1) assert.equal(grey.src[c.offset + y * grey.stride + x], expectedDot(image, place, x, y), `dot (${x},${y}) of ${JSON.stringify(place)}`);
        }
        // the row padding and what lies before the canvas stay untouched
        for (let i = 0; i < c.offset; i += 1) assert.equal(grey.src[i], 255);
        for (let y = 0; y < c.ch; y += 1) for (let p = 0; p < c.pad; p += 1) assert.equal(grey.src[c.offset + y * grey.stride + c.cw + p], 255);
      },
    ),
    { numRuns: 400 },
  );
});
