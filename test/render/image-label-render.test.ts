// PNG and JPEG to ZPL labels through the real worker pool: 1:1 dots, pHYs scaling, paperSize fitting, orientation, damaged files.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DeviceError } from '../../src/errors';
import { silentLogger } from '../../src/log';
import { decodePng } from '../../src/render/png-decode';
import { RenderPool } from '../../src/render/render-pool';
import { code128Jpeg, code128Png } from '../fixtures/barcode-images';
import { monoPng } from '../fixtures/png-encode';
import { blackBox } from './bitmap-probe';
import { readLabelBarcodes } from './barcode-reader';
import { pdfiumWasm } from './pdfium-fixture';
import { zplJob } from './render-jobs';
import { decodeLabels, dotAt, type DecodedLabel } from './zpl-label-decode';

const pool = new RenderPool({
  size: 1, maxQueue: 8, jobTimeoutMs: 20_000, wasm: pdfiumWasm(), logger: silentLogger,
  worker: { kind: 'file', path: join(__dirname, '..', '..', 'src', 'render', 'render-worker.ts') },
});
after(() => pool.close());

type Opts = Parameters<typeof zplJob>[1];
async function labels(bytes: Uint8Array, format: 'png' | 'jpeg', opts: Opts = {}): Promise<DecodedLabel[]> {
  return decodeLabels(new TextDecoder().decode((await pool.render(zplJob(bytes, opts, format))).bytes));
}

async function codesOn(label: DecodedLabel): Promise<string[]> {
  return (await readLabelBarcodes(label.bitmap, label.pw)).filter((r) => r.isValid).map((r) => `${r.format}:${r.text}`);
}

test('a PNG is the label at one pixel per dot: same size, the very same dots, and its Code 128 reads', async () => {
  const png = await code128Png('PNG-LABEL-0042');
  const image = decodePng(png);
  const [label] = await labels(png, 'png', { copies: 2 });
  assert.deepEqual([label.pw, label.ll, label.pq], [image.width, Math.max(102, image.height), 2], 'the label is never shorter than 0.5 in');
  for (let y = 0; y < image.height; y += 1) {
    for (let x = 0; x < image.width; x += 1) assert.equal(dotAt(label.bitmap, x, y), image.pixels[y * image.width + x] < 128, `dot (${x},${y})`);
  }
  assert.deepEqual(await codesOn(label), ['Code128:PNG-LABEL-0042']);
});

test('a JPEG of a Code 128 prints at one pixel per dot and reads', async () => {
  const [label] = await labels(await code128Jpeg('JPEG-LABEL-7'), 'jpeg');
  assert.deepEqual(await codesOn(label), ['Code128:JPEG-LABEL-7']);
});

test('pHYs: a 406 dpi PNG prints at its physical size on a 203 dpi printer; one stating ~203 dpi stays 1:1', async () => {
  const leftHalf = (x: number) => x < 300;
  const [half] = await labels(monoPng(600, 400, leftHalf, 15984), 'png');
  assert.deepEqual([half.pw, half.ll, blackBox(half.bitmap)], [300, 200, [0, 0, 149, 199]]);
  const [same] = await labels(monoPng(600, 400, leftHalf, 7992), 'png');
  assert.deepEqual([same.pw, same.ll, blackBox(same.bitmap)], [600, 400, [0, 0, 299, 399]]);
  const [at300] = await labels(monoPng(600, 400, leftHalf, 15984), 'png', { dpi: 300 });
  assert.deepEqual([at300.pw, at300.ll], [443, 296], '1.478 x 0.985 in at 300 dpi');
});

test('paperSize: the image is fitted into the label keeping its aspect ratio, centred; a landscape image on portrait media is turned', async () => {
  const black = () => true;
  const [tall] = await labels(monoPng(100, 200, black), 'png', { paperSize: '4x6' });
  assert.deepEqual([tall.pw, tall.ll, blackBox(tall.bitmap)], [812, 1218, [101, 0, 709, 1217]]);
  const [wide] = await labels(monoPng(300, 100, black), 'png', { paperSize: '4x6' });
  assert.deepEqual([wide.pw, wide.ll, blackBox(wide.bitmap)], [812, 1218, [203, 0, 608, 1217]]);
  const [shrunk] = await labels(monoPng(2000, 1000, black), 'png', { paperSize: '2x1' });
  assert.deepEqual([shrunk.pw, shrunk.ll, blackBox(shrunk.bitmap)], [406, 203, [0, 0, 405, 202]]);
});

test('a barcode scaled into a paperSize label by whole dots still reads', async () => {
  const [label] = await labels(await code128Png('FIT-4X2-99', 2), 'png', { paperSize: '4x2' });
  assert.deepEqual([label.pw, label.ll], [812, 406]);
  assert.deepEqual(await codesOn(label), ['Code128:FIT-4X2-99']);
});

test('orientation turns an image like a page: landscape 90 degrees counter-clockwise', async () => {
  const topLeft = (x: number, y: number) => x < 20 && y < 20;
  const [turned] = await labels(monoPng(300, 150, topLeft), 'png', { orientation: 'landscape' });
  assert.deepEqual([turned.pw, turned.ll, blackBox(turned.bitmap)], [150, 300, [0, 280, 19, 299]]);
});

test('fitToPage without paperSize scales an image wider than the largest label down into it', async () => {
  const [clipped] = await labels(monoPng(2000, 200, () => true), 'png');
  assert.deepEqual([clipped.pw, clipped.ll, blackBox(clipped.bitmap)], [1624, 200, [0, 0, 1623, 199]], 'clipped at 8 in');
  const [fitted] = await labels(monoPng(2000, 200, () => true), 'png', { fitToPage: true });
  assert.deepEqual([fitted.pw, fitted.ll, blackBox(fitted.bitmap)], [1624, 200, [0, 19, 1623, 180]]);
});

test('dither: a photographic grey becomes a dot pattern, where the threshold gives solid areas', async () => {
  const grey = (await import('../fixtures/pdf/png')).greyPng(200, 150);
  const [plain] = await labels(grey, 'png');
  const [dithered] = await labels(grey, 'png', { dither: true });
  assert.notDeepEqual(dithered.bitmap.data, plain.bitmap.data);
  assert.deepEqual([dithered.pw, dithered.ll], [200, 150]);
});

async function rejectsWith(promise: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof DeviceError, String(err));
    assert.equal(err.code, 'RENDER_FAILED');
    assert.match(err.message, message);
    return true;
  });
}

test('damaged PNG and JPEG files fail their own job with RENDER_FAILED and a clear message; the worker keeps serving', async () => {
  const png = await code128Png('X1');
  const jpeg = await code128Jpeg('X1');
  await rejectsWith(pool.render(zplJob(png.subarray(0, png.length / 2), {}, 'png')), /^PNG could not be decoded: file is truncated/);
  await rejectsWith(pool.render(zplJob(new TextEncoder().encode('%PDF-1.4 not an image'), {}, 'png')), /^PNG could not be decoded: not a PNG file/);
  await rejectsWith(pool.render(zplJob(jpeg.subarray(0, jpeg.length / 2), {}, 'jpeg')), /^JPEG could not be decoded: /);
  await rejectsWith(pool.render(zplJob(png, {}, 'jpeg')), /^JPEG could not be decoded: not a JPEG file/);
  await rejectsWith(pool.render(zplJob(png, { pageRange: '2' }, 'png')), /pageRange selects no page of a 1-page document/);
  const [label] = await labels(png, 'png');
  assert.deepEqual(await codesOn(label), ['Code128:X1']);
  assert.equal(pool.stats().workers, 1);
});
