// What a rasteriser is: a document's bytes in, its selected pages out as 1-bit bitmaps at the printer's resolution.
import type { MonoBitmap } from '../encoders/mono-bitmap';
import type { ResolvedRaster } from './render-options';

/** Receives each rendered page in order; the bitmap (and its data) may be reused once the call returns. */
export type PageSink = (page: MonoBitmap) => void;

/** What one rasterisation did: pages rendered, pages in the document, and the first page's size in dots. */
export interface RasterSummary {
  pages: number;
  documentPages: number;
  widthDots: number;
  heightDots: number;
}

/** Turns one document format into page bitmaps; throws DeviceError RENDER_FAILED with the reason. Not re-entrant. */
export interface Rasteriser {
  rasterise(bytes: Uint8Array, opts: ResolvedRaster, sink: PageSink): RasterSummary;
}
