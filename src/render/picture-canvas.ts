// Draws one grey picture as one page bitmap at a layout: a white canvas, the picture on it, threshold or dither; buffers reused.
import type { MonoBitmap } from '../encoders/mono-bitmap';
import type { GreyImage } from './grey-image';
import { drawImage } from './image-draw';
import type { MediaSizePt } from '../util/media-size';
import { toMono, type GreySource } from './mono';
import type { PageLayout } from './page-layout';

/** The picture's size in points: its stated resolution when it has one, else one pixel per printer dot at `dpi`. */
export function pictureSizePt(image: GreyImage, dpi: number): MediaSizePt {
  return { widthPt: (image.width * 72) / (image.dpi?.x ?? dpi), heightPt: (image.height * 72) / (image.dpi?.y ?? dpi) };
}

/** Turns pictures into page bitmaps, keeping its canvas and dot buffers between pages and jobs. Not re-entrant. */
export class PictureCanvas {
  private canvasBuffer: Uint8Array | undefined;
  private monoBuffer: Uint8Array | undefined;

  /** The page bitmap of `image` drawn at `layout`; valid until the next call. */
  draw(image: GreyImage, layout: PageLayout, dither: boolean): MonoBitmap {
    const grey = coversCanvas(image, layout, dither) ? asGreySource(image) : this.drawn(image, layout, dither);
    const mono = toMono(grey, dither, this.monoBuffer);
    if (mono.data.length > (this.monoBuffer?.length ?? 0)) this.monoBuffer = mono.data;
    return mono;
  }

  /** The picture drawn on a white canvas at the layout's placement. */
  private drawn(image: GreyImage, layout: PageLayout, dither: boolean): GreySource {
    const grey = this.blankCanvas(layout.canvas.widthDots, layout.canvas.heightDots);
    drawImage(grey, image, layout.place, dither);
    return grey;
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

/** True when the picture is the canvas dot for dot (unrotated, unscaled, at 0,0, the same size) and is thresholded: drawing would copy it as it is. */
function coversCanvas(image: GreyImage, layout: PageLayout, dither: boolean): boolean {
  const { canvas, place } = layout;
  const exact = place.rotate === 0 && place.x === 0 && place.y === 0 && place.width === image.width && place.height === image.height;
  return !dither && exact && canvas.widthDots === image.width && canvas.heightDots === image.height;
}

/** The picture's own pixels as the grey block to threshold. */
function asGreySource(image: GreyImage): GreySource {
  return { src: image.pixels, offset: 0, stride: image.width, width: image.width, height: image.height };
}
