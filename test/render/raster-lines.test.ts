// The straight-to-grey line decoder (PWG Raster and URF pages of 8 bits per colour) against decoding each line's bytes
// and converting it afterwards: the same pixels, and the same error where a stream is cut short or runs past a line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeGreyRows, decodeLines } from '../../src/render/raster-lines';
import { lineToGrey, pixelGreyOf, type RasterColour, type RasterPixels } from '../../src/render/raster-grey';

const COLOURS: Array<{ colour: RasterColour; colors: number }> = [
  { colour: 'white', colors: 1 },
  { colour: 'black', colors: 1 },
  { colour: 'rgb', colors: 3 },
  { colour: 'cmyk', colors: 4 },
];

/** A page of compressed lines from `seed`: line repeats, repeat runs, literal runs and 0x80 ends of line, some runs past the line. */
function page(seed: number, width: number, height: number, bpp: number): number[] {
  let s = seed;
  const next = (n: number) => {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    return ((s >>> 8) & 0xffff) % n;
  };
  const out: number[] = [];
  for (let row = 0; row < height; ) {
    // most lines once, some repeated up to 8 times (copied in doubling steps)
    const repeat = next(3) === 0 ? next(8) : 0;
    out.push(repeat);
    row += repeat + 1;
    for (let x = 0; x < width; ) {
      const kind = next(8);
      if (kind === 0) {
        out.push(0x80);
        break;
      }
      // now and then a run longer than the line has room for (a repeat is cut at the end, a literal is an error)
      const room = next(40) === 0 ? width - x + 1 + next(3) : width - x;
      const n = 1 + next(Math.min(128, room));
      const pixel = () => Array.from({ length: bpp }, () => (next(4) === 0 ? next(256) : next(2) * 255));
      if (kind < 5) out.push(n - 1, ...pixel());
      else out.push(257 - n, ...Array.from({ length: n }, pixel).flat());
      x += n;
    }
  }
  return out;
}

/** The reference: each line decoded to bytes, then converted to grey. */
function lineByLine(bytes: Uint8Array, px: RasterPixels, height: number, blank: number): Uint8Array | string {
  const out = new Uint8Array(px.width * height);
  let row = 0;
  try {
    decodeLines('PWG raster', { bytes, pos: 0 }, px.width * px.colors, px.colors, height, blank, (line, count) => {
      lineToGrey(line, px, out, row * px.width);
      for (let r = 1; r < count; r += 1) out.copyWithin((row + r) * px.width, row * px.width, (row + 1) * px.width);
      row += count;
    });
  } catch (err) {
    return (err as Error).message;
  }
  return out;
}

function straight(bytes: Uint8Array, px: RasterPixels, height: number, blank: number): Uint8Array | string {
  const out = new Uint8Array(px.width * height);
  const grey = pixelGreyOf(px);
  assert.ok(grey, '8 bits per colour have a pixel reader');
  try {
    decodeGreyRows('PWG raster', { bytes, pos: 0 }, px.width, px.colors, height, grey(new Uint8Array(px.colors).fill(blank), 0), grey, out);
  } catch (err) {
    return (err as Error).message;
  }
  return out;
}

test('straight to grey: the same pixels or the same error as line by line, for every colour space and any stream', () => {
  let errors = 0;
  let pages = 0;
  fc.assert(
    fc.property(fc.integer(), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 20 }), fc.constantFrom(...COLOURS), fc.integer({ min: 0, max: 9 }), (seed, width, height, space, cut) => {
      const px: RasterPixels = { colour: space.colour, bitsPerColor: 8, colors: space.colors, width };
      const full = page(seed, width, height, space.colors);
      // one stream in ten is cut short somewhere
      const bytes = Uint8Array.from(cut === 0 ? full.slice(0, (seed >>> 0) % full.length) : full);
      const blank = space.colour === 'black' || space.colour === 'cmyk' ? 0x00 : 0xff;
      const expected = lineByLine(bytes, px, height, blank);
      const got = straight(bytes, px, height, blank);
      if (typeof expected === 'string') {
        errors += 1;
        assert.equal(got, expected);
      } else {
        pages += 1;
        assert.ok(got instanceof Uint8Array, `decoded: ${String(got)}`);
        assert.deepEqual([...got], [...expected]);
      }
    }),
    { numRuns: 600 },
  );
  // both outcomes were met, so neither half of the comparison went untried
  assert.ok(errors > 20 && pages > 200, `${errors} errors and ${pages} pages compared`);
});

test('16-bit and 1-bit pixels have no straight path (they are decoded line by line)', () => {
  assert.equal(pixelGreyOf({ colour: 'rgb', bitsPerColor: 16, colors: 3, width: 4 }), null);
  assert.equal(pixelGreyOf({ colour: 'black', bitsPerColor: 1, colors: 1, width: 4 }), null);
});
