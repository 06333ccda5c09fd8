// Document format → rasteriser, one set per pdfium instance (each rasteriser keeps its own reusable buffers).
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import { ImageRasteriser } from './image-rasteriser';
import { decodeJpeg } from './jpeg-decode';
import { SimdThreshold } from './mono-simd';
import { PdfGlyphCache } from './pdf-glyph-cache';
import { pdfiumHeap } from './pdfium-init';
import { PdfRasteriser } from './pdf-rasteriser';
import { decodePng } from './png-decode';
import { decodePwgPages } from './pwg-raster-decode';
import { RasterPagesRasteriser } from './raster-pages-rasteriser';
import { decodeUrfPages } from './urf-decode';
import type { Rasteriser } from './rasteriser';
import type { RasterFormat } from './render-job';

/** A rasteriser for every format a render accepts. */
export type Rasterisers = Readonly<Record<RasterFormat, Rasteriser>>;

/** The rasterisers of one worker (or one command run), PDFs rendered by `pdfium`. */
export function createRasterisers(pdfium: WrappedPdfiumModule): Rasterisers {
  const heap = pdfiumHeap(pdfium);
  return {
    pdf: new PdfRasteriser(pdfium, new PdfGlyphCache(pdfium), heap && SimdThreshold.create(heap)),
    png: new ImageRasteriser(decodePng),
    jpeg: new ImageRasteriser(decodeJpeg),
    pwg: new RasterPagesRasteriser(decodePwgPages),
    urf: new RasterPagesRasteriser(decodeUrfPages),
  };
}
