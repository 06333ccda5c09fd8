// Test helper: where the black dots of a bitmap are.
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';
import { dotAt } from './zpl-label-decode';

/** Smallest box holding every black dot, inclusive dots [x0, y0, x1, y1], or null when all white. */
export function blackBox(bitmap: MonoBitmap): [number, number, number, number] | null {
  let box: [number, number, number, number] | null = null;
  for (let y = 0; y < bitmap.height; y += 1) {
    for (let x = 0; x < bitmap.width; x += 1) {
      if (!dotAt(bitmap, x, y)) continue;
      box = box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)] : [x, y, x, y];
    }
  }
  return box;
}
