// Picture (PNG, JPEG) → one page bitmap: decode to grey, lay it out like a page of its physical size, draw, threshold or dither.
import type { GreyImage } from './grey-image';
import { drawImage } from './image-draw';
import type { MediaSizePt } from './media-size';
import { toMono, type GreySource } from './mono';
import { IMAGE_SIZING, pageLayouter } from './page-layout';
import type { PageSink, RasterSummary, Rasteriser } from './rasteriser';
import { selectPages, type ResolvedRaster } from './render-options';

/** Decodes one picture format; throws DeviceError RENDER_FAILED naming the format and the reason. */
export type ImageDecoder = (bytes: Uint8Array) => GreyImage;

/** The picture's size in points: its stated resolution when it has one, else one pixel per printer dot at `dpi`. */
function imageSizePt(image: GreyImage, dpi: number): MediaSizePt {
  return { widthPt: (image.width * 72) / (image.dpi?.x ?? dpi), heightPt: (image.height * 72) / (image.dpi?.y ?? dpi) };
}

/** Rasterises single-picture documents with `decode`; reuses its canvas and dot buffers between jobs. Not re-entrant. */
export class ImageRasteriser implements Rasteriser {
  private canvasBuffer: Uint8Array | undefined;
  private monoBuffer: Uint8Array | undefined;

  constructor(private readonly decode: ImageDecoder) {}

  /** Sends the one page to `sink` (pageRange and maxPages apply as to a 1-page document). */
  rasterise(bytes: Uint8Array, opts: ResolvedRaster, sink: PageSink): RasterSummary {
    selectPages(opts.ranges, 1, opts.maxPages);
    const image = this.decode(bytes);
    const { canvas, place } = pageLayouter(opts, IMAGE_SIZING)(imageSizePt(image, opts.dpi));
    const grey = this.blankCanvas(canvas.widthDots, canvas.heightDots);
    drawImage(grey, image, place, opts.dither);
    const mono = toMono(grey, opts.dither, this.monoBuffer);
    if (mono.data.length > (this.monoBuffer?.length ?? 0)) this.monoBuffer = mono.data;
    sink(mono);
    return { pages: 1, documentPages: 1, widthDots: canvas.widthDots, heightDots: canvas.heightDots };
  }

  /** A white canvas with 4-byte aligned rows (the threshold's word path). */
  private blankCanvas(width: number, height: number): GreySource {
    const stride = (width + 3) & ~3;
    const size = stride * height;
    if ((this.canvasBuffer?.length ?? 0) < size) this.canvasBuffer = new Uint8Array(size);
    const src = this.canvasBuffer!.subarray(0, size);
    src.fill(255);
    return { src, offset: 0, stride, width, height };
  }
}
