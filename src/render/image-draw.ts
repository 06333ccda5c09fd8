// Draws a grey picture onto a grey canvas at a placement (dots, quarter turns): whole-dot nearest neighbour, or smoothed for dithering.
import type { GreyImage } from './grey-image';
import type { PagePlacement } from './label-geometry';
import type { GreySource } from './mono';

/** For each of `n` destination dots along an axis, the source index (0..`size`-1) under its centre. */
function nearest(n: number, size: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i += 1) out[i] = Math.min(size - 1, Math.floor(((i + 0.5) * size) / n));
  return out;
}

/**
 * Offsets into `image.pixels` for each destination column (`xs`) and row (`ys`), so a dot reads pixel `xs[dx] + ys[dy]`.
 * Rotations as pdfium's: 1 = 90° clockwise, 2 = 180°, 3 = 90° counter-clockwise.
 */
function sampleOffsets(image: GreyImage, place: PagePlacement): { xs: Int32Array; ys: Int32Array } {
  const { width: w, height: h } = image;
  const odd = place.rotate % 2 === 1;
  const alongX = nearest(place.width, odd ? h : w);
  const alongY = nearest(place.height, odd ? w : h);
  const map = (a: Int32Array, f: (v: number) => number) => a.map(f);
  switch (place.rotate) {
    case 0:
      return { xs: alongX, ys: map(alongY, (v) => v * w) };
    case 1:
      return { xs: map(alongX, (v) => (h - 1 - v) * w), ys: alongY };
    case 2:
      return { xs: map(alongX, (v) => w - 1 - v), ys: map(alongY, (v) => (h - 1 - v) * w) };
    case 3:
      return { xs: map(alongX, (v) => v * w), ys: map(alongY, (v) => w - 1 - v) };
  }
}

/** Area-average resampling to `tw` × `th` pixels (smooth when shrinking, blocky when enlarging): for photographs before dithering. */
function resampleArea(image: GreyImage, tw: number, th: number): GreyImage {
  const rows = resampleAxis(image.pixels, image.width, image.height, tw, true);
  const pixels = resampleAxis(rows, tw, image.height, th, false);
  return { width: tw, height: th, pixels, dpi: null };
}

/** Resamples along x (`horizontal`) or y of a `w` × `h` block to `n` samples on that axis, by pixel coverage. */
function resampleAxis(src: Uint8Array, w: number, h: number, n: number, horizontal: boolean): Uint8Array {
  const size = horizontal ? w : h;
  const lines = horizontal ? h : w;
  const out = new Uint8Array(horizontal ? n * h : w * n);
  const step = (i: number) => (horizontal ? i : i * w);
  const outStep = (i: number) => (horizontal ? i : i * w);
  const scale = size / n;
  for (let o = 0; o < n; o += 1) {
    const start = o * scale;
    const end = start + scale;
    for (let line = 0; line < lines; line += 1) {
      const base = horizontal ? line * w : line;
      let sum = 0;
      for (let s = Math.floor(start); s < end && s < size; s += 1) sum += src[base + step(s)] * (Math.min(end, s + 1) - Math.max(start, s));
      out[(horizontal ? line * n : line) + outStep(o)] = Math.round(sum / scale);
    }
  }
  return out;
}

/** Draws `image` into `canvas` at `place`, clipped to the canvas; `smooth` area-averages first (dithering), else nearest neighbour. */
export function drawImage(canvas: GreySource, image: GreyImage, place: PagePlacement, smooth: boolean): void {
  const odd = place.rotate % 2 === 1;
  const source = smooth ? resampleArea(image, odd ? place.height : place.width, odd ? place.width : place.height) : image;
  const { xs, ys } = sampleOffsets(source, place);
  const px = source.pixels;
  const x0 = Math.max(0, place.x);
  const x1 = Math.min(canvas.width, place.x + place.width);
  const y1 = Math.min(canvas.height, place.y + place.height);
  if (place.rotate === 0 && place.width === source.width) {
    copyRows(canvas, px, ys, place, x0, x1, y1);
    return;
  }
  for (let y = Math.max(0, place.y); y < y1; y += 1) {
    const row = ys[y - place.y];
    const out = canvas.offset + y * canvas.stride;
    for (let x = x0; x < x1; x += 1) canvas.src[out + x] = px[xs[x - place.x] + row];
  }
}

/** Unrotated at one pixel per dot across: each canvas row is a slice of a picture row (`ys` its offsets), copied whole. */
function copyRows(canvas: GreySource, px: Uint8Array, ys: Int32Array, place: PagePlacement, x0: number, x1: number, y1: number): void {
  if (x1 <= x0) return;
  const from = x0 - place.x;
  for (let y = Math.max(0, place.y); y < y1; y += 1) {
    const row = ys[y - place.y] + from;
    canvas.src.set(px.subarray(row, row + x1 - x0), canvas.offset + y * canvas.stride + x0);
  }
}
