// Test helper: render jobs as the spooler sends them, from bytes and a few options.
import type { RasterFormat, RasterOptions, RenderJob } from '../../src/render/render-job';

/** A job rendering `bytes` (a PDF unless `format` says otherwise) to ZPL labels at 203 dpi unless `raster` says otherwise. */
export function zplJob(bytes: Uint8Array, opts: Partial<RasterOptions> & { copies?: number } = {}, format: RasterFormat = 'pdf'): RenderJob {
  const { copies = 1, ...raster } = opts;
  return { format, bytes, raster: { dpi: 203, ...raster }, encode: { language: 'zpl', copies } };
}

/** A job rendering `bytes` to an ESC/POS receipt `widthDots` wide (576: 80 mm paper at 203 dpi). */
export function escposJob(bytes: Uint8Array, format: RasterFormat, widthDots = 576, opts: Partial<RasterOptions> & { copies?: number } = {}): RenderJob {
  const { copies = 1, ...raster } = opts;
  return { format, bytes, raster: { dpi: 203, widthDots, ...raster }, encode: { language: 'escpos', copies } };
}
