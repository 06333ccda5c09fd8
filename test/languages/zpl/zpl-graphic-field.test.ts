// ^GFA Z64 encoder: CRC check value, round trip through inflate, agreement with zpl-image on the same dots.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { MonoBitmap } from '../../../src/encoders/mono-bitmap';
import { crcHex, encodeZ64, graphicFieldZ64, zplCrc16 } from '../../../src/languages/zpl/zpl-graphic-field';
import { decodeGraphicField } from '../../render/zpl-label-decode';

const requireCjs = createRequire(__filename);
const zplImage = requireCjs('zpl-image') as { rgbaToZ64(rgba: Uint8Array, width: number, opts: object): { length: number; rowlen: number; z64: string } };

function checkerboard(width: number, height: number): MonoBitmap {
  const bytesPerRow = Math.ceil(width / 8);
  const data = new Uint8Array(bytesPerRow * height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) if ((x >> 2) % 2 === (y >> 2) % 2) data[y * bytesPerRow + (x >> 3)] |= 0x80 >> (x & 7);
  return { width, height, bytesPerRow, data };
}

test('CRC-16/XMODEM check value of "123456789" is 0x31c3', () => {
  assert.equal(zplCrc16('123456789'), 0x31c3);
  assert.equal(zplCrc16(''), 0);
  assert.equal(crcHex(0x0a), '000a');
  assert.equal(crcHex(0xbeef), 'beef');
});

test('encodeZ64 frames base64 of zlib data with its CRC', () => {
  const data = new Uint8Array([0, 1, 2, 255, 255, 0, 7]);
  const z64 = encodeZ64(data);
  const m = /^:Z64:([A-Za-z0-9+/=]+):([0-9a-f]{4})$/.exec(z64);
  assert.ok(m, z64);
  assert.equal(crcHex(zplCrc16(m[1])), m[2]);
});

test('graphicFieldZ64 round-trips a bitmap whose width is not a multiple of 8', () => {
  const bmp = checkerboard(37, 21);
  const field = graphicFieldZ64(bmp);
  assert.match(field, /^\^GFA,105,105,5,:Z64:/);
  assert.deepEqual(decodeGraphicField(field).data, bmp.data);
});

test('our field carries the same dots as zpl-image for the same picture', () => {
  const bmp = checkerboard(64, 16);
  const rgba = new Uint8Array(64 * 16 * 4);
  for (let y = 0; y < 16; y += 1) {
    for (let x = 0; x < 64; x += 1) {
      const black = (bmp.data[y * 8 + (x >> 3)] & (0x80 >> (x & 7))) !== 0;
      rgba.set(black ? [0, 0, 0, 255] : [255, 255, 255, 255], (y * 64 + x) * 4);
    }
  }
  const theirs = zplImage.rgbaToZ64(rgba, 64, { notrim: true });
  const ours = decodeGraphicField(graphicFieldZ64(bmp));
  const decodedTheirs = decodeGraphicField(`^GFA,${theirs.length},${theirs.length},${theirs.rowlen},${theirs.z64}`);
  assert.deepEqual(ours.data, decodedTheirs.data);
});
