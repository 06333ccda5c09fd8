// PNG row filters undone in WebAssembly for one byte per pixel (8-bit grey, palettes, packed bits): Up 16 bytes at a time.
import { WASM, type GrowableWasmMemory } from './wasm-api';

// The module, assembled here from its instructions (the project carries no wasm toolchain). One function,
// u(at, rb, rows) → rows done: the `rows` filtered rows of `rb` bytes from `at` (each a filter byte, then its bytes) are
// unfiltered in place, packed from `at`; the rb bytes before `at` must be zero (the row above the first). It stops at a
// row with an unknown filter type and returns its index.

/** Unsigned LEB128. */
function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128 (for i32.const). */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

// locals: the parameters, then the function's own
const [AT, RB, ROWS, Y, O, S, U, I, A, B, C, DA, DB, PA, PB, PC, F] = Array.from({ length: 17 }, (_, i) => i);
const OWN_LOCALS = 14;

const get = (l: number) => [0x20, l];
const set = (l: number) => [0x21, l];
const tee = (l: number) => [0x22, l];
const i32 = (n: number) => [0x41, ...sleb(n)];
const ADD = 0x6a;
const SUB = 0x6b;
const AND = 0x71;
const SHR_U = 0x76;
const LT_S = 0x48;
const GT_U = 0x4b;
const LE_S = 0x4c;
const GE_U = 0x4f;
const SELECT = 0x1b;
const LOAD8 = [0x2d, 0x00, 0x00];
const STORE8 = [0x3a, 0x00, 0x00];
const V128_LOAD = [0xfd, 0x00, 0x00, 0x00];
const V128_STORE = [0xfd, 0x0b, 0x00, 0x00];
const I8X16_ADD = [0xfd, 0x6e];
const MEMORY_COPY = [0xfc, 0x0a, 0x00, 0x00];
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = 0x0b;
const br = (depth: number) => [0x0c, depth];
const brIf = (depth: number) => [0x0d, depth];
const RETURN = 0x0f;

/** `byte[l + i]`. */
const byteAt = (l: number) => [...get(l), ...get(I), ADD, ...LOAD8];
/** |l|, into `into`. */
const abs = (l: number, into: number) => [...i32(0), ...get(l), SUB, ...get(l), ...get(l), ...i32(0), LT_S, SELECT, ...set(into)];
/** for (i = from; i < rb; i += 1) body — inside it, `br(1)` leaves the loop and `br(0)` continues. */
const eachByte = (body: number[]) => [...BLOCK, ...LOOP, ...get(I), ...get(RB), GE_U, ...brIf(1), ...body, ...get(I), ...i32(1), ADD, ...set(I), ...br(0), END, END];
/** out[o + i] = value (the value's instructions leave it on the stack). */
const storeOut = (value: number[]) => [...get(O), ...get(I), ADD, ...value, ...STORE8];

/** Sub: each byte adds the one before it (carried in A). */
const SUB_ROW = [...i32(0), ...set(A), ...i32(0), ...set(I), ...eachByte(storeOut([...byteAt(S), ...get(A), ADD, ...i32(255), AND, ...tee(A)]))];

/** Up: each byte adds the one above it, 16 at a time, then the rest one at a time. */
const UP_ROW = [
  ...i32(0),
  ...set(I),
  ...BLOCK,
  ...LOOP,
  ...get(I), ...i32(16), ADD, ...get(RB), GT_U, ...brIf(1),
  ...get(O), ...get(I), ADD,
  ...get(S), ...get(I), ADD, ...V128_LOAD,
  ...get(U), ...get(I), ADD, ...V128_LOAD,
  ...I8X16_ADD,
  ...V128_STORE,
  ...get(I), ...i32(16), ADD, ...set(I),
  ...br(0),
  END,
  END,
  ...eachByte(storeOut([...byteAt(S), ...byteAt(U), ADD])),
];

/** Average: each byte adds the mean of the one before it and the one above it. */
const AVERAGE_ROW = [
  ...i32(0), ...set(A), ...i32(0), ...set(I),
  ...eachByte(storeOut([...byteAt(S), ...get(A), ...byteAt(U), ADD, ...i32(1), SHR_U, ADD, ...i32(255), AND, ...tee(A)])),
];

/** Paeth: each byte adds whichever of left (A), above (B) and upper left (C) is nearest to left + above - upper left. */
const PAETH_ROW = [
  ...i32(0), ...set(A), ...i32(0), ...set(C), ...i32(0), ...set(I),
  ...eachByte([
    ...byteAt(U), ...set(B),
    ...get(B), ...get(C), SUB, ...set(DA),
    ...get(A), ...get(C), SUB, ...set(DB),
    ...abs(DA, PA),
    ...abs(DB, PB),
    ...get(DA), ...get(DB), ADD, ...set(PC),
    ...abs(PC, PC),
    ...storeOut([
      ...byteAt(S),
      // (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c)
      ...get(A),
      ...get(B), ...get(C), ...get(PB), ...get(PC), LE_S, SELECT,
      ...get(PA), ...get(PB), LE_S, ...get(PA), ...get(PC), LE_S, AND,
      SELECT,
      ADD, ...i32(255), AND, ...tee(A),
    ]),
    ...get(B), ...set(C),
  ]),
];

const BODY = [
  ...get(AT), ...set(O),
  ...get(AT), ...set(S),
  ...BLOCK, // $done
  ...LOOP, // $rows
  ...get(Y), ...get(ROWS), GE_U, ...brIf(1),
  ...get(S), ...LOAD8, ...set(F),
  ...get(S), ...i32(1), ADD, ...set(S),
  ...get(O), ...get(RB), SUB, ...set(U),
  ...BLOCK, // $next
  ...BLOCK, // $unknown
  ...BLOCK, // $paeth
  ...BLOCK, // $average
  ...BLOCK, // $up
  ...BLOCK, // $sub
  ...BLOCK, // $none
  ...get(F), 0x0e, 0x05, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, // br_table $none $sub $up $average $paeth, else $unknown
  END,
  ...get(O), ...get(S), ...get(RB), ...MEMORY_COPY, ...br(5),
  END,
  ...SUB_ROW, ...br(4),
  END,
  ...UP_ROW, ...br(3),
  END,
  ...AVERAGE_ROW, ...br(2),
  END,
  ...PAETH_ROW, ...br(1),
  END,
  ...get(Y), RETURN, // an unknown filter type: the rows done so far
  END, // $next: the next row
  ...get(O), ...get(RB), ADD, ...set(O),
  ...get(S), ...get(RB), ADD, ...set(S),
  ...get(Y), ...i32(1), ADD, ...set(Y),
  ...br(0),
  END,
  END,
  ...get(ROWS),
  END,
];

function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content];
}

const name = (s: string) => [...leb(s.length), ...Buffer.from(s)];
const FUNCTION = [...leb(1), ...leb(OWN_LOCALS), 0x7f, ...BODY];
const MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, [1, 0x60, 3, 0x7f, 0x7f, 0x7f, 1, 0x7f]), // (i32, i32, i32) → i32
  ...section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, 0x00]), // import env.memory
  ...section(3, [1, 0]),
  ...section(7, [1, ...name('u'), 0x00, 0]),
  ...section(10, [1, ...leb(FUNCTION.length), ...FUNCTION]),
]);

const PAGE = 64 * 1024;

/**
 * Undoes the row filters of a one-pass image of one byte per pixel in a wasm memory of its own, grown as images need
 * and kept. `create` returns null where wasm SIMD is missing (the JS unfilter serves).
 */
export class WasmUnfilter {
  private constructor(
    private readonly memory: GrowableWasmMemory,
    private readonly run: (at: number, rb: number, rows: number) => number,
  ) {}

  /** An unfilterer, or null when this runtime cannot compile the module. */
  static create(): WasmUnfilter | null {
    if (!WASM.validate(MODULE)) return null;
    const memory = new WASM.Memory({ initial: 1 });
    const instance = new WASM.Instance(new WASM.Module(MODULE), { env: { memory } });
    return new WasmUnfilter(memory, instance.exports.u as (at: number, rb: number, rows: number) => number);
  }

  /** Bytes of wasm memory it holds (grown for the largest image so far; a wasm memory never shrinks). */
  get capacity(): number {
    return this.memory.buffer.byteLength;
  }

  /**
   * The `rows` unfiltered rows of `rb` bytes of `filtered` (each a filter byte, then its bytes), packed: a view of wasm
   * memory, valid until the next call. A number instead: the index of the first row with an unknown filter type.
   */
  unfilter(filtered: Uint8Array, rb: number, rows: number): Uint8Array | number {
    const size = filtered.length;
    const needed = rb + size;
    const have = this.memory.buffer.byteLength;
    if (needed > have) this.memory.grow(Math.ceil((needed - have) / PAGE));
    const heap = new Uint8Array(this.memory.buffer);
    // the row above the first is zeros; the filtered rows follow it
    heap.fill(0, 0, rb);
    heap.set(filtered, rb);
    const done = this.run(rb, rb, rows);
    return done < rows ? done : heap.subarray(rb, rb + rb * rows);
  }
}
