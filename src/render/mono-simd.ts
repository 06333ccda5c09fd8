// Grey → 1-bit dots inside pdfium's own wasm memory with 128-bit SIMD: 16 pixels per step, no copy out of wasm.
import type { MonoBitmap } from '../encoders/mono-bitmap';
import { DEFAULT_THRESHOLD, thresholdAligned, type GreySource } from './mono';
import { WASM, type WasmMemory } from './wasm-api';

/**
 * A wasm module of one function, `t(src, srcStride, dst, dstStride, blocks, rows)`, over an imported memory: for each of
 * `rows` rows, 16 grey bytes at a time (`blocks` per row) → 2 bytes of dots, a dot black where grey < 128 (its top bit
 * clear), first pixel in the top bit. Per block: v128.load, v128.not, i8x16.shuffle (lanes reversed within each half,
 * so the first pixel lands in bit 7), i8x16.bitmask, i32.store16 (little-endian: the first 8 pixels in the first byte).
 */
// prettier-ignore
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  // type: (i32 × 6) → ()
  0x01, 0x0a, 0x01, 0x60, 0x06, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00,
  // import env.memory, no minimum, no maximum
  0x02, 0x0f, 0x01, 0x03, 0x65, 0x6e, 0x76, 0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00, 0x00,
  // one function of type 0, exported as "t"
  0x03, 0x02, 0x01, 0x00,
  0x07, 0x05, 0x01, 0x01, 0x74, 0x00, 0x00,
  // code
  0x0a, 0x7d, 0x01, 0x7b,
  0x02, 0x03, 0x7f, 0x01, 0x7b, // locals: s, d, n (i32), v (v128)
  0x02, 0x40, 0x20, 0x05, 0x45, 0x0d, 0x00, // block; rows == 0 → out
  0x03, 0x40, // loop (rows)
  0x20, 0x00, 0x21, 0x06, 0x20, 0x02, 0x21, 0x07, 0x20, 0x04, 0x21, 0x08, // s = src; d = dst; n = blocks
  0x02, 0x40, 0x20, 0x08, 0x45, 0x0d, 0x00, // block; n == 0 → next row
  0x03, 0x40, // loop (blocks)
  0x20, 0x07, // d (store address)
  0x20, 0x06, 0xfd, 0x00, 0x00, 0x00, // v128.load s
  0xfd, 0x4d, // v128.not
  0x22, 0x09, 0x20, 0x09, // v = …; v, v
  0xfd, 0x0d, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x00, 0x0f, 0x0e, 0x0d, 0x0c, 0x0b, 0x0a, 0x09, 0x08, // i8x16.shuffle
  0xfd, 0x64, // i8x16.bitmask
  0x3b, 0x00, 0x00, // i32.store16 d
  0x20, 0x06, 0x41, 0x10, 0x6a, 0x21, 0x06, // s += 16
  0x20, 0x07, 0x41, 0x02, 0x6a, 0x21, 0x07, // d += 2
  0x20, 0x08, 0x41, 0x01, 0x6b, 0x22, 0x08, 0x0d, 0x00, // if (--n) continue
  0x0b, 0x0b, // end loop, end block
  0x20, 0x00, 0x20, 0x01, 0x6a, 0x21, 0x00, // src += srcStride
  0x20, 0x02, 0x20, 0x03, 0x6a, 0x21, 0x02, // dst += dstStride
  0x20, 0x05, 0x41, 0x01, 0x6b, 0x22, 0x05, 0x0d, 0x00, // if (--rows) continue
  0x0b, 0x0b, // end loop, end block
  0x0b, // end function
]);

type ThresholdFn = (src: number, srcStride: number, dst: number, dstStride: number, blocks: number, rows: number) => void;

/** The memory and allocator of the wasm instance whose grey bitmaps are thresholded (pdfium's). */
export interface WasmHeap {
  memory: WasmMemory;
  malloc(size: number): number;
  free(ptr: number): void;
}

/**
 * Thresholds grey bitmaps that live in `heap` (at the default threshold) into a dot buffer allocated in the same heap,
 * reused and grown as needed. `create` returns undefined where wasm SIMD is missing (callers use mono.ts instead).
 */
export class SimdThreshold {
  private dst = 0;
  private capacity = 0;

  private constructor(private readonly heap: WasmHeap, private readonly run: ThresholdFn) {}

  /** A thresholder over `heap`, or undefined when this runtime cannot run the SIMD module or link it to that memory. */
  static create(heap: WasmHeap): SimdThreshold | undefined {
    if (!WASM.validate(MODULE)) return undefined;
    try {
      const instance = new WASM.Instance(new WASM.Module(MODULE), { env: { memory: heap.memory } });
      return new SimdThreshold(heap, instance.exports.t as ThresholdFn);
    } catch {
      // a memory the module cannot import (a shared one, say): the JS path serves
      return undefined;
    }
  }

  /**
   * Dots of `grey` (which must be `heap`'s own HEAPU8 with an offset into it), black where grey < 128. The bitmap's data
   * is a view of wasm memory, valid until the next call or until the heap grows; undefined if no buffer could be had.
   */
  threshold(grey: GreySource): MonoBitmap | undefined {
    const { width, height, stride, offset } = grey;
    const bytesPerRow = (width + 7) >> 3;
    const size = bytesPerRow * height;
    if (!this.reserve(size)) return undefined;
    const blocks = width >> 4;
    this.run(offset, stride, this.dst, bytesPerRow, blocks, height);
    const data = new Uint8Array(this.heap.memory.buffer, this.dst, size);
    const mono = { width, height, bytesPerRow, data };
    const done = blocks << 4;
    if (done < width) {
      // the last 0..15 columns of each row: the byte path of mono.ts into the bytes after the SIMD blocks
      const rest = { width: width - done, height, bytesPerRow, data: data.subarray(blocks << 1) };
      const restGrey = { src: new Uint8Array(this.heap.memory.buffer), offset: offset + done, stride, width: width - done, height };
      thresholdAligned(rest, restGrey, DEFAULT_THRESHOLD);
    }
    return mono;
  }

  /** Frees the dot buffer. */
  close(): void {
    if (this.dst) this.heap.free(this.dst);
    this.dst = 0;
    this.capacity = 0;
  }

  private reserve(size: number): boolean {
    if (size <= this.capacity) return true;
    this.close();
    this.dst = this.heap.malloc(size);
    this.capacity = this.dst ? size : 0;
    return this.dst !== 0;
  }
}
