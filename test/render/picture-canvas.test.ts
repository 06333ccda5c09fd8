// Picture → page bitmap: a picture that is the canvas dot for dot is thresholded from its own pixels, with the same dots as when drawn.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GreyImage } from '../../src/render/grey-image';
import { PictureCanvas } from '../../src/render/picture-canvas';
import type { PageLayout } from '../../src/render/page-layout';

function picture(width: number, height: number): GreyImage {
  const pixels = new Uint8Array(width * height);
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = (i * 53) % 256;
  return { width, height, pixels, dpi: null };
}

function layout(width: number, height: number, canvasWidth = width, canvasHeight = height): PageLayout {
  return { canvas: { widthDots: canvasWidth, heightDots: canvasHeight }, place: { x: 0, y: 0, width, height, rotate: 0 } };
}

for (const [width, height] of [[16, 3], [13, 5], [1, 1], [812, 4]]) {
  test(`a ${width}x${height} picture the size of the canvas gives the dots of the threshold rule, and the same as on a wider canvas`, () => {
    const image = picture(width, height);
    const own = new PictureCanvas().draw(image, layout(width, height), false);
    const wider = new PictureCanvas().draw(image, layout(width, height, width + 8, height), false);
    assert.deepEqual([own.width, own.height], [width, height]);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const black = image.pixels[y * width + x] < 128;
        assert.equal((own.data[y * own.bytesPerRow + (x >> 3)] & (0x80 >> (x & 7))) !== 0, black, `dot (${x},${y})`);
        assert.equal((wider.data[y * wider.bytesPerRow + (x >> 3)] & (0x80 >> (x & 7))) !== 0, black, `dot (${x},${y}) on the wider canvas`);
      }
    }
  });
}

test('drawing the same picture twice through one canvas gives the same bitmap (the picture is read, never written)', () => {
  const image = picture(24, 6);
  const copy = Uint8Array.from(image.pixels);
  const canvas = new PictureCanvas();
  const first = Uint8Array.from(canvas.draw(image, layout(24, 6), false).data);
  const second = canvas.draw(image, layout(24, 6), false).data;
  assert.deepEqual(second, first);
  assert.deepEqual(image.pixels, copy);
});
