// Development defaults: the worker source points at the .ts worker and the wasm path at node_modules' pdfium.wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { defaultWorkerSource, pdfiumWasmPath, readPdfiumWasm } from '../../src/render/render-assets';

test('outside a bundle the worker is src/render/render-worker.ts and the wasm comes from node_modules', () => {
  const source = defaultWorkerSource();
  assert.equal(source.kind, 'file');
  assert.ok(source.kind === 'file' && source.path.endsWith('src/render/render-worker.ts') && existsSync(source.path));
  assert.match(pdfiumWasmPath(), /node_modules\/@embedpdf\/pdfium\/dist\/pdfium\.wasm$/);
  const wasm = readPdfiumWasm();
  assert.deepEqual(Array.from(wasm.subarray(0, 4)), [0x00, 0x61, 0x73, 0x6d], 'wasm magic number');
});
