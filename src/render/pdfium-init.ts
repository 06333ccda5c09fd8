// Starts one pdfium wasm instance from wasm bytes handed in (never fetched or located at run time).
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import { DeviceError } from '../errors';
import type { WasmHeap } from './mono-simd';
import type { WasmMemory } from './wasm-api';

/** A ready pdfium module (library initialised) from the bytes of pdfium.wasm; DeviceError RENDER_FAILED if they are not. */
export async function initPdfium(wasm: Uint8Array): Promise<WrappedPdfiumModule> {
  try {
    const binary = wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer;
    const pdfium = await init({ wasmBinary: binary, print: () => undefined, printErr: () => undefined });
    pdfium.PDFiumExt_Init();
    return pdfium;
  } catch (err) {
    throw new DeviceError('RENDER_FAILED', `pdfium failed to start: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The wasm memory and allocator of a started pdfium (emscripten exports `memory`; its typings omit it), if present. */
export function pdfiumHeap(pdfium: WrappedPdfiumModule): WasmHeap | undefined {
  const exports = pdfium.pdfium.wasmExports as typeof pdfium.pdfium.wasmExports & { memory?: unknown };
  const { memory, malloc, free } = exports;
  const isMemory = (m: unknown): m is WasmMemory => typeof m === 'object' && m !== null && (m as WasmMemory).buffer instanceof ArrayBuffer;
  return isMemory(memory) ? { memory, malloc, free } : undefined;
}
