// Page rasters (PWG Raster, URF) → page bitmaps: each decoded page is laid out like a PDF page of its physical size.
import { DeviceError } from '../errors';
import { reusedPixels, type GreyImage, type PixelScratch } from './grey-image';
import { PAGE_SIZING, pageLayouter } from './page-layout';
import { PictureCanvas, pictureSizePt } from './picture-canvas';
import type { PageSink, RasterSummary, Rasteriser } from './rasteriser';
import type { ResolvedRaster } from './render-options';

/** Decodes a multi-page raster lazily: each page's picture (its pixels in `scratch`) when `wanted(index)`, else null (its data skipped). */
export type PageDecoder = (bytes: Uint8Array, wanted: (index: number) => boolean, scratch: PixelScratch) => Iterable<GreyImage | null>;

/** Rasterises page-raster documents with `decode`, one page in memory at a time (one pixel buffer kept between pages and jobs), in document order. Not re-entrant. */
export class RasterPagesRasteriser implements Rasteriser {
  private readonly canvas = new PictureCanvas();
  private readonly pixels = reusedPixels();

  constructor(private readonly decode: PageDecoder) {}

  /** Sends each selected page to `sink` as it is decoded; pageRange selects pages in document order. */
  rasterise(bytes: Uint8Array, opts: ResolvedRaster, sink: PageSink): RasterSummary {
    const layout = pageLayouter(opts, PAGE_SIZING);
    const wanted = (index: number) => !opts.ranges || opts.ranges.some(([a, b]) => index + 1 >= a && index + 1 <= b);
    const summary: RasterSummary = { pages: 0, documentPages: 0, widthDots: 0, heightDots: 0 };
    for (const page of this.decode(bytes, wanted, this.pixels)) {
      summary.documentPages += 1;
      if (!page) continue;
      if (summary.pages >= opts.maxPages) throw new DeviceError('RENDER_FAILED', `page count exceeds limit ${opts.maxPages}`);
      const placed = layout(pictureSizePt(page, opts.dpi));
      sink(this.canvas.draw(page, placed, opts.dither));
      if (summary.pages === 0) Object.assign(summary, { widthDots: placed.canvas.widthDots, heightDots: placed.canvas.heightDots });
      summary.pages += 1;
    }
    if (summary.pages === 0) throw new DeviceError('RENDER_FAILED', `the raster has ${summary.documentPages} pages and none was selected`);
    return summary;
  }
}
