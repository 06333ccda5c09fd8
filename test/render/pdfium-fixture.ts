// Test helper: the pdfium wasm bytes from node_modules and one shared in-process renderer.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initPdfium } from '../../src/render/pdfium-init';
import { PdfRenderer } from '../../src/render/pdf-renderer';

const requireCjs = createRequire(__filename);

/** Bytes of node_modules/@embedpdf/pdfium/dist/pdfium.wasm. */
export function pdfiumWasm(): Uint8Array {
  return readFileSync(requireCjs.resolve('@embedpdf/pdfium/pdfium.wasm'));
}

let shared: Promise<PdfRenderer> | undefined;

/** One renderer per test process, started on first use. */
export function sharedRenderer(): Promise<PdfRenderer> {
  shared ??= initPdfium(pdfiumWasm()).then((pdfium) => new PdfRenderer(pdfium));
  return shared;
}
