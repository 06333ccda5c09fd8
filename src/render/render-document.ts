// One render in process: check the job, rasterise its pages, encode them as they come, report what was done.
import { DeviceError } from '../errors';
import { ENCODERS } from './encoder-table';
import type { Rasterisers } from './rasteriser-table';
import { checkCopies, resolveRaster, type RasterRequest } from './render-options';
import type { RenderJob, RenderOutput } from './render-job';

/** A RenderJob whose raster options may use any IPP orientation (the in-process form; RenderJob fits it). */
export type LocalRenderJob = Omit<RenderJob, 'raster'> & { raster: RasterRequest };

/** A render's output (the document's own page count included). */
export type RenderReport = RenderOutput;

/**
 * Renders `job` with `rasterisers` and the encoder of its language; each page is encoded as soon as it is rasterised.
 * Throws DeviceError RENDER_FAILED (bad option, bad document) or UNSUPPORTED_CONTENT (unknown format or language).
 */
export function renderDocument(job: LocalRenderJob, rasterisers: Rasterisers): RenderReport {
  const raster = resolveRaster(job.raster);
  const copies = checkCopies(job.encode);
  if (!Object.hasOwn(rasterisers, job.format)) throw new DeviceError('UNSUPPORTED_CONTENT', `documents of format "${String(job.format)}" cannot be rendered`);
  const encoderAt = Object.hasOwn(ENCODERS, job.encode.language) ? ENCODERS[job.encode.language] : undefined;
  if (!encoderAt) throw new DeviceError('UNSUPPORTED_CONTENT', `printer language "${String(job.encode.language)}" cannot be written`);
  const encoder = encoderAt(raster.dpi, job.encode.model)(copies);
  const summary = rasterisers[job.format].rasterise(job.bytes, raster, (page) => encoder.addPage(page));
  return { bytes: encoder.finish(), pages: summary.pages, documentPages: summary.documentPages, widthDots: summary.widthDots, heightDots: summary.heightDots };
}
