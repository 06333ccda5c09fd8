// Test helper: zxing-wasm's reader started from its wasm in node_modules (no network), reading decoded labels.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { prepareZXingModule, readBarcodes, type ReadResult } from 'zxing-wasm/reader';
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';
import { toRgba } from './zpl-label-decode';

const requireCjs = createRequire(__filename);
let prepared = false;

function prepare(): void {
  if (prepared) return;
  const wasmPath = join(dirname(requireCjs.resolve('zxing-wasm/reader')), '..', '..', 'reader', 'zxing_reader.wasm');
  const wasmBinary = readFileSync(wasmPath);
  prepareZXingModule({ overrides: { wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer }, fireImmediately: true });
  prepared = true;
}

/** Every barcode zxing finds in the label's dots (first `width` columns). */
export async function readLabelBarcodes(bitmap: MonoBitmap, width: number): Promise<ReadResult[]> {
  prepare();
  const data = toRgba(bitmap, width);
  const imageData = { data, width, height: bitmap.height, colorSpace: 'srgb' } as unknown as Parameters<typeof readBarcodes>[0];
  return readBarcodes(imageData, { formats: ['Code128', 'QRCode', 'DataMatrix'], tryHarder: true, maxNumberOfSymbols: 8 });
}
