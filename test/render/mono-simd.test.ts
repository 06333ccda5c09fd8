// Grey → dots in wasm SIMD: the same dots as mono.ts for any width, stride and content, in a dot buffer it reuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { blankMono, thresholdAligned } from '../../src/render/mono';
import { SimdThreshold, type WasmHeap } from '../../src/render/mono-simd';
import type { WasmMemory } from '../../src/render/wasm-api';

/** A wasm memory of its own with a bump allocator that records what was freed. */
function testHeap(): WasmHeap & { freed: number[]; mallocs: number[] } {
  const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (d: { initial: number }) => WasmMemory } }).WebAssembly;
  const memory = new Memory({ initial: 4 });
  let next = 64;
  const heap = {
    memory,
    freed: [] as number[],
    mallocs: [] as number[],
    malloc: (size: number) => {
      const ptr = next;
      next += (size + 15) & ~15;
      heap.mallocs.push(ptr);
      return ptr;
    },
    free: (ptr: number) => void heap.freed.push(ptr),
  };
  return heap;
}

const greyCase = fc.record({
  width: fc.integer({ min: 1, max: 130 }),
  height: fc.integer({ min: 1, max: 5 }),
  pad: fc.constantFrom(0, 1, 3, 4, 16),
  seed: fc.integer(),
  palette: fc.constantFrom('any', 'crisp', 'sparse'),
});

test('SIMD dots equal mono.ts dots for any width, stride and grey content (threshold 128)', () => {
  const heap = testHeap();
  const simd = SimdThreshold.create(heap);
  assert.ok(simd, 'this Node runs wasm SIMD');
  fc.assert(
    fc.property(greyCase, (c) => {
      const stride = c.width + c.pad;
      const offset = heap.malloc(stride * c.height);
      const src = new Uint8Array(heap.memory.buffer);
      let s = c.seed;
      for (let i = 0; i < stride * c.height; i += 1) {
        s = (Math.imul(s, 1103515245) + 12345) | 0;
        const r = (s >>> 16) & 255;
        src[offset + i] = c.palette === 'crisp' ? (r & 1 ? 255 : 0) : c.palette === 'sparse' ? (r < 8 ? r * 20 : 255) : r;
      }
      const grey = { src, offset, stride, width: c.width, height: c.height };
      const expected = blankMono(c.width, c.height);
      thresholdAligned(expected, grey);
      const got = simd.threshold(grey);
      assert.ok(got);
      assert.deepEqual([got.width, got.height, got.bytesPerRow], [expected.width, expected.height, expected.bytesPerRow]);
      assert.deepEqual([...got.data], [...expected.data]);
    }),
    { numRuns: 300 },
  );
});

test('the dot buffer is reused while it is large enough, replaced (old one freed) when a page needs more', () => {
  const heap = testHeap();
  const simd = SimdThreshold.create(heap)!;
  const page = (width: number, height: number) => {
    const offset = heap.malloc(width * height);
    new Uint8Array(heap.memory.buffer, offset, width * height).fill(0);
    return { src: new Uint8Array(heap.memory.buffer), offset, stride: width, width, height };
  };
  const first = simd.threshold(page(64, 4))!;
  const second = simd.threshold(page(32, 4))!;
  assert.equal(second.data.byteOffset, first.data.byteOffset, 'a smaller page reuses the buffer');
  assert.ok(second.data.every((v) => v === 0xff), 'all black');
  const before = heap.mallocs.length;
  const third = simd.threshold(page(128, 8))!;
  assert.equal(heap.freed.length, 1, 'the small buffer was freed');
  assert.ok(heap.mallocs.length > before + 1 && third.data.byteOffset === heap.mallocs.at(-1), 'a new buffer holds the larger page');
  simd.close();
  assert.equal(heap.freed.length, 2);
});

test('a memory the module cannot link to gives no thresholder (the JS path serves), not an error', () => {
  const notMemory = { buffer: new ArrayBuffer(65536) };
  assert.equal(SimdThreshold.create({ memory: notMemory, malloc: () => 0, free: () => undefined }), undefined);
});
