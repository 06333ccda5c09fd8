// Previews: one page of a document rendered for one printer by the print path's own render job and worker pool, as a PNG of its dots.
import { AppError } from '../errors';
import { LANGUAGES } from '../languages';
import type { RasterFormat } from '../render/render-job';
import { renderJob, type FilterInput, type Render } from './filters';

/** One previewed page: the PNG (one pixel per printer dot), and the document's page count. */
export interface Preview {
  png: Uint8Array;
  documentPages: number;
  widthDots: number;
  heightDots: number;
}

/**
 * Renders page `page` (1-based) of `input` exactly as a print to that printer would (its dpi, dither, paper width and the
 * job's options), then encodes it as PNG instead of the printer's language. Throws AppError NO_PREVIEW for what the device
 * does not draw itself: a printer language's own bytes or raw bytes (sent as they are) and printers that take documents (IPP).
 */
export async function renderPreview(render: Render, input: FilterInput, page: number, signal: AbortSignal): Promise<Preview> {
  const language = input.language;
  if (LANGUAGES[language].pages === null) throw new AppError('NO_PREVIEW', 'this printer renders documents itself: the device draws no preview for it');
  if (input.format !== 'pdf' && input.format !== 'png' && input.format !== 'jpeg') {
    throw new AppError('NO_PREVIEW', `${input.format} data goes to the printer as it is: the device draws no preview of it`);
  }
  const job = renderJob(input, input.format satisfies RasterFormat, language);
  const out = await render({ ...job, raster: { ...job.raster, pageRange: String(page) }, encode: { language: 'png', copies: 1 } }, signal);
  return { png: out.bytes, documentPages: out.documentPages, widthDots: out.widthDots, heightDots: out.heightDots };
}
