// Picture (PNG, JPEG) → one page bitmap: decode to grey, lay it out like a page of its physical size, draw, threshold or dither.
import type { GreyImage } from './grey-image';
import { IMAGE_SIZING, pageLayouter } from './page-layout';
import { PictureCanvas, pictureSizePt } from './picture-canvas';
import type { PageSink, RasterSummary, Rasteriser } from './rasteriser';
import { selectPages, type ResolvedRaster } from './render-options';

/** Decodes one picture format; throws DeviceError RENDER_FAILED naming the format and the reason. */
export type ImageDecoder = (bytes: Uint8Array) => GreyImage;

/** Rasterises single-picture documents with `decode`; reuses its canvas and dot buffers between jobs. Not re-entrant. */
export class ImageRasteriser implements Rasteriser {
  private readonly canvas = new PictureCanvas();

  constructor(private readonly decode: ImageDecoder) {}

  /** Sends the one page to `sink` (pageRange and maxPages apply as to a 1-page document). */
  rasterise(bytes: Uint8Array, opts: ResolvedRaster, sink: PageSink): RasterSummary {
    selectPages(opts.ranges, 1, opts.maxPages);
    const image = this.decode(bytes);
    const layout = pageLayouter(opts, IMAGE_SIZING)(pictureSizePt(image, opts.dpi));
    sink(this.canvas.draw(image, layout, opts.dither));
    return { pages: 1, documentPages: 1, widthDots: layout.canvas.widthDots, heightDots: layout.canvas.heightDots };
  }
}
