// Test helper: the pdfium wasm bytes from node_modules, one shared in-process set of rasterisers, and renders through it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';
import { initPdfium } from '../../src/render/pdfium-init';
import { createRasterisers, type Rasterisers } from '../../src/render/rasteriser-table';
import { renderDocument, type LocalRenderJob, type RenderReport } from '../../src/render/render-document';
import { resolveRaster, type RasterRequest } from '../../src/render/render-options';

const requireCjs = createRequire(__filename);

/** Bytes of node_modules/@embedpdf/pdfium/dist/pdfium.wasm. */
export function pdfiumWasm(): Uint8Array {
  return readFileSync(requireCjs.resolve('@embedpdf/pdfium/pdfium.wasm'));
}

let shared: Promise<Rasterisers> | undefined;

/** One set of rasterisers per test process, started on first use. */
export function sharedRasterisers(): Promise<Rasterisers> {
  shared ??= initPdfium(pdfiumWasm()).then(createRasterisers);
  return shared;
}

/** Renders `job` in this process with the shared rasterisers. */
export async function renderLocal(job: LocalRenderJob): Promise<RenderReport> {
  return renderDocument(job, await sharedRasterisers());
}

/** The pages of `pdf` as the render pipeline draws them with `request` (203 dpi by default), each copied (the rasteriser reuses its buffers). */
export async function renderPdfPages(pdf: Uint8Array, request: RasterRequest = { dpi: 203 }): Promise<MonoBitmap[]> {
  const rasterisers = await sharedRasterisers();
  const pages: MonoBitmap[] = [];
  rasterisers.pdf.rasterise(pdf, resolveRaster(request), (page) => void pages.push({ ...page, data: Uint8Array.from(page.data) }));
  return pages;
}

/** Raster options at 203 dpi plus a copy count, as the label tests write them. */
export type LabelOpts = Partial<RasterRequest> & { copies?: number };

/** ZPL text of `pdf` rendered in process as labels with `opts`. */
export async function pdfToZplText(pdf: Uint8Array, opts: LabelOpts = {}): Promise<string> {
  const { copies = 1, ...raster } = opts;
  const report = await renderLocal({ format: 'pdf', bytes: pdf, raster: { dpi: 203, ...raster }, encode: { language: 'zpl', copies } });
  return new TextDecoder().decode(report.bytes);
}
