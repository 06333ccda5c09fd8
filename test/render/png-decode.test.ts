// PNG decoder: every colour type and bit depth, palette, tRNS, alpha over white, Adam7, all row filters, pHYs; damaged files fail clearly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { DeviceError } from '../../src/errors';
import { decodePng } from '../../src/render/png-decode';
import { encodePng, type PngSpec } from '../fixtures/png-encode';

/** Reference grey of one pixel (float maths, BT.601), alpha over white, from samples scaled to 0..1. */
function referenceGrey(spec: PngSpec, x: number, y: number): number {
  const max = 2 ** spec.bitDepth - 1;
  const s = spec.samples(x, y);
  const transparent = spec.trns !== undefined && spec.colorType !== 3 && s.every((v, i) => v === spec.trns![i]);
  let rgb: number[];
  let alpha = 1;
  switch (spec.colorType) {
    case 0: rgb = [s[0], s[0], s[0]].map((v) => v / max); break;
    case 2: rgb = s.map((v) => v / max); break;
    case 3: rgb = spec.palette![s[0]].map((v) => v / 255); alpha = (spec.trns?.[s[0]] ?? 255) / 255; break;
    case 4: rgb = [s[0], s[0], s[0]].map((v) => v / max); alpha = s[1] / max; break;
    case 6: rgb = s.slice(0, 3).map((v) => v / max); alpha = s[3] / max; break;
  }
  if (transparent) alpha = 0;
  const luma = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2];
  return 255 * (luma * alpha + (1 - alpha));
}

/** Samples that vary with position and reach both ends of the range. */
function pattern(channels: number, depth: number): PngSpec['samples'] {
  const max = 2 ** depth - 1;
  return (x, y) => Array.from({ length: channels }, (_, c) => ((x * 7 + y * 13 + c * 5) * (max + 1) / 17) % (max + 1) | 0);
}

const CASES: Array<Pick<PngSpec, 'colorType' | 'bitDepth'>> = [
  ...([1, 2, 4, 8, 16] as const).map((bitDepth) => ({ colorType: 0 as const, bitDepth })),
  ...([8, 16] as const).map((bitDepth) => ({ colorType: 2 as const, bitDepth })),
  ...([1, 2, 4, 8] as const).map((bitDepth) => ({ colorType: 3 as const, bitDepth })),
  ...([8, 16] as const).map((bitDepth) => ({ colorType: 4 as const, bitDepth })),
  ...([8, 16] as const).map((bitDepth) => ({ colorType: 6 as const, bitDepth })),
];
const CHANNELS = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function specFor(c: Pick<PngSpec, 'colorType' | 'bitDepth'>, interlace: boolean): PngSpec {
  const size = { width: 13, height: 11 };
  if (c.colorType !== 3) return { ...size, ...c, interlace, samples: pattern(CHANNELS[c.colorType], c.bitDepth) };
  const colours = 2 ** c.bitDepth;
  const palette = Array.from({ length: colours }, (_, i) => [(i * 97) % 256, (i * 31) % 256, (i * 199) % 256] as [number, number, number]);
  return { ...size, ...c, interlace, palette, trns: [0, 128], samples: pattern(1, c.bitDepth) };
}

function assertDecodes(spec: PngSpec, label: string): void {
  const image = decodePng(encodePng(spec));
  assert.deepEqual([image.width, image.height], [spec.width, spec.height], label);
  for (let y = 0; y < spec.height; y += 1) {
    for (let x = 0; x < spec.width; x += 1) {
      const want = referenceGrey(spec, x, y);
      const got = image.pixels[y * spec.width + x];
      assert.ok(Math.abs(got - want) <= 1.01, `${label} (${x},${y}): got ${got}, want ${want.toFixed(2)}`);
    }
  }
}

for (const c of CASES) {
  for (const interlace of [false, true]) {
    test(`colour type ${c.colorType}, ${c.bitDepth}-bit${interlace ? ', Adam7' : ''}: grey matches the reference within 1`, () => {
      assertDecodes(specFor(c, interlace), `type ${c.colorType}/${c.bitDepth}`);
    });
  }
}

test('tRNS on grey and RGB makes the keyed colour white paper', () => {
  assertDecodes({ width: 9, height: 5, colorType: 0, bitDepth: 4, trns: [3], samples: (x) => [x % 5] }, 'grey key');
  assertDecodes({ width: 9, height: 5, colorType: 2, bitDepth: 16, trns: [0, 0, 0], samples: (x) => (x % 2 ? [0, 0, 0] : [0, 0, 1]) }, 'rgb key');
  const image = decodePng(encodePng({ width: 2, height: 1, colorType: 2, bitDepth: 8, trns: [0, 0, 0], samples: (x) => (x ? [0, 0, 0] : [0, 0, 1]) }));
  assert.deepEqual([...image.pixels], [0, 255], 'only the exact key is transparent');
});

test('pHYs in pixels per metre becomes dpi; none, aspect-only or absurd values give null', () => {
  const base: PngSpec = { width: 2, height: 2, colorType: 0, bitDepth: 8, samples: () => [0] };
  assert.equal(Math.round(decodePng(encodePng({ ...base, pixelsPerMetre: 11811 })).dpi!.x), 300);
  assert.equal(decodePng(encodePng(base)).dpi, null);
  assert.equal(decodePng(encodePng({ ...base, pixelsPerMetre: 1 })).dpi, null);
});

function failsWith(bytes: Uint8Array, message: RegExp): void {
  assert.throws(() => decodePng(bytes), (err: unknown) => {
    assert.ok(err instanceof DeviceError, String(err));
    assert.equal(err.code, 'RENDER_FAILED');
    assert.match(err.message, message);
    return true;
  });
}

test('damaged PNGs fail with DeviceError RENDER_FAILED saying what is wrong', () => {
  const good = encodePng({ width: 40, height: 30, colorType: 6, bitDepth: 8, samples: pattern(4, 8) });
  failsWith(new TextEncoder().encode('GIF89a not a png'), /^PNG could not be decoded: not a PNG file/);
  failsWith(good.subarray(0, good.length - 20), /PNG could not be decoded: file is truncated/);
  const flipped = Buffer.from(good);
  flipped[50] ^= 0xff;
  failsWith(flipped, /^PNG could not be decoded: IDAT chunk is damaged \(CRC mismatch\)$/);
  const palette = encodePng({ width: 4, height: 1, colorType: 3, bitDepth: 8, palette: [[0, 0, 0]], samples: (x) => [x] });
  failsWith(palette, /palette index 1 is beyond the 1-colour palette/);
  const huge = encodePng({ width: 1, height: 1, colorType: 0, bitDepth: 8, samples: () => [0] });
  huge.writeUInt32BE(20_000, 16);
  huge.writeUInt32BE(20_000, 20);
  fixCrc(huge, 8);
  failsWith(huge, /PNG of 20000x20000 pixels exceeds the limit of 25 megapixels/);
  const short = encodePng({ width: 1, height: 1, colorType: 0, bitDepth: 8, samples: () => [0] });
  short.writeUInt32BE(5, 16);
  fixCrc(short, 8);
  failsWith(short, /image data is truncated/);
});

/** Recomputes the CRC of the chunk starting at `at` after a test edited it. */
function fixCrc(png: Buffer, at: number): void {
  const length = png.readUInt32BE(at);
  png.writeUInt32BE(crc32(png.subarray(at + 4, at + 8 + length)) >>> 0, at + 8 + length);
}

/** Noise in 0..255 from a seed (a linear congruential generator): every Paeth predictor wins somewhere. */
function noise(seed: number, smooth: boolean): PngSpec['samples'] {
  return (x, y) => {
    let v = (Math.imul(x * 7919 + y * 104729 + seed, 1103515245) + 12345) >>> 16;
    if (smooth) v = ((x + y) * 9 + (v & 15)) % 256;
    return [v & 0xff];
  };
}

for (const interlace of [false, true]) {
  for (const smooth of [false, true]) {
    test(`8-bit grey ${smooth ? 'gradients' : 'noise'}${interlace ? ', Adam7' : ''} through every row filter decodes to exactly its pixels`, () => {
      const spec: PngSpec = { width: 61, height: 47, colorType: 0, bitDepth: 8, interlace, samples: noise(interlace ? 7 : 3, smooth) };
      const image = decodePng(encodePng(spec));
      for (let y = 0; y < spec.height; y += 1) for (let x = 0; x < spec.width; x += 1) assert.equal(image.pixels[y * spec.width + x], spec.samples(x, y)[0], `(${x},${y})`);
    });
  }
}
