// Starts one pdfium wasm instance from wasm bytes handed in (never fetched or located at run time).
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import { DeviceError } from '../errors';

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
