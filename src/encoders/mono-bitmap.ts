// The 1-bit bitmap every rasteriser produces and every encoder consumes.

/** A 1-bit image: `bytesPerRow * height` bytes, bit set = black dot, most significant bit = leftmost dot. */
export interface MonoBitmap {
  /** Width in dots. */
  width: number;
  /** Height in dots. */
  height: number;
  /** Bytes per row, `ceil(width / 8)`. */
  bytesPerRow: number;
  data: Uint8Array;
}
