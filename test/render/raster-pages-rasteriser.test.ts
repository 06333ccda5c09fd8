// Page rasters through one rasteriser: its pixel buffer is reused from page to page and job to job, never showing a page's pixels in another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePwgPages } from '../../src/render/pwg-raster-decode';
import { RasterPagesRasteriser } from '../../src/render/raster-pages-rasteriser';
import { resolveRaster } from '../../src/render/render-options';

/** An 8-bit sGray PWG Raster page: the 1796-byte header, then each line as one-pixel runs. */
function pwgPage(width: number, height: number, grey: (x: number, y: number) => number): Buffer {
  const header = Buffer.alloc(1796);
  header.writeUInt32BE(203, 276);
  header.writeUInt32BE(203, 280);
  for (const [at, value] of [[372, width], [376, height], [384, 8], [388, 8], [392, width], [396, 0], [400, 18], [420, 1]]) header.writeUInt32BE(value, at);
  const lines: number[] = [];
  for (let y = 0; y < height; y += 1) {
    lines.push(0); // the line once
    for (let x = 0; x < width; x += 1) lines.push(0, grey(x, y)); // each pixel a run of one
  }
  return Buffer.concat([header, Buffer.from(lines)]);
}

function pwg(...pages: Buffer[]): Buffer {
  return Buffer.concat([Buffer.from('RaS2'), ...pages]);
}

/** Every page bitmap a rasteriser gives for `bytes`, copied out of its reused buffers. */
function bitmaps(rasteriser: RasterPagesRasteriser, bytes: Uint8Array): Array<{ width: number; height: number; data: number[] }> {
  const out: Array<{ width: number; height: number; data: number[] }> = [];
  rasteriser.rasterise(bytes, resolveRaster({ dpi: 203 }), (page) => out.push({ width: page.width, height: page.height, data: [...page.data] }));
  return out;
}

test('a page smaller than the one before it, and a job after a larger one, get only their own pixels (same dots as a fresh rasteriser)', () => {
  const dark = pwgPage(48, 40, (x, y) => ((x * 3 + y * 5) % 7 < 4 ? 0 : 255));
  const light = pwgPage(40, 24, () => 255);
  const stripes = pwgPage(40, 24, (x) => (x % 2 ? 0 : 255));
  const jobs = [pwg(dark, light), pwg(light), pwg(stripes, dark), pwg(light, light)];
  const shared = new RasterPagesRasteriser(decodePwgPages);
  for (const [i, job] of jobs.entries()) assert.deepEqual(bitmaps(shared, job), bitmaps(new RasterPagesRasteriser(decodePwgPages), job), `job ${i + 1}`);
  // the all-white pages print nothing at all, whatever came before them
  for (const page of bitmaps(shared, pwg(dark, light)).slice(1)) assert.ok(page.data.every((b) => b === 0), 'a white page after a dark one has no black dot');
});
