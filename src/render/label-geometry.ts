// Label size and page placement in printer dots: clamping to the supported label range, orientation, fit-to-page.
import type { PrintOptions } from '../schemas/print-options';
import type { MediaSizePt } from '../util/media-size';

/** IPP orientation names (seed 2.5). */
export type Orientation = NonNullable<PrintOptions['orientation']>;

/** pdfium's rotate argument: 0 none, 1 = 90° clockwise, 2 = 180°, 3 = 90° counter-clockwise. */
export type PdfiumRotation = 0 | 1 | 2 | 3;

/** Supported label range in points (seed 4.5.2): width 36–576, length 36–3600. */
export const LABEL_LIMITS_PT = { minWidth: 36, maxWidth: 576, minLength: 36, maxLength: 3600 } as const;

/** A label size in printer dots (^PW width, ^LL length). */
export interface LabelDots {
  widthDots: number;
  heightDots: number;
}

/** Where one page lands on the label, in dots: pdfium's start_x/start_y/size_x/size_y/rotate. */
export interface PagePlacement {
  x: number;
  y: number;
  width: number;
  height: number;
  rotate: PdfiumRotation;
}

/** IPP orientation → pdfium rotation (RFC 8011: landscape turns content 90° counter-clockwise). */
export function rotationFor(orientation: Orientation | undefined): PdfiumRotation {
  switch (orientation) {
    case undefined:
    case 'portrait':
      return 0;
    case 'landscape':
      return 3;
    case 'reverse-landscape':
      return 1;
    case 'reverse-portrait':
      return 2;
  }
}

/** The page size as it appears after rotation (sides swap for quarter turns). */
export function rotatedSize(page: MediaSizePt, rotate: PdfiumRotation): MediaSizePt {
  return rotate % 2 === 1 ? { widthPt: page.heightPt, heightPt: page.widthPt } : page;
}

/** A size clamped into the supported label range (seed 4.5.2), in points. */
export function clampLabelSize(size: MediaSizePt): MediaSizePt {
  const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
  return {
    widthPt: clamp(size.widthPt, LABEL_LIMITS_PT.minWidth, LABEL_LIMITS_PT.maxWidth),
    heightPt: clamp(size.heightPt, LABEL_LIMITS_PT.minLength, LABEL_LIMITS_PT.maxLength),
  };
}

/** Points → whole dots at `dpi`, rounded to the nearest dot. */
export function ptToDots(pt: number, dpi: number): number {
  return Math.max(1, Math.round((pt * dpi) / 72));
}

/**
 * The label's size in dots and the rotation to apply to every page. The first page (after `orientation`)
 * selects the size unless `forced` (a parsed paperSize) is given; with a forced size and no orientation,
 * a page whose long side disagrees with the label's is turned to landscape. Both are clamped.
 */
export function planLabel(firstPage: MediaSizePt, dpi: number, orientation: Orientation | undefined, forced: MediaSizePt | null): LabelDots & { rotate: PdfiumRotation } {
  let rotate = rotationFor(orientation);
  if (forced && orientation === undefined && isLandscape(firstPage) !== isLandscape(forced)) rotate = 3;
  const size = clampLabelSize(forced ?? rotatedSize(firstPage, rotate));
  return { widthDots: ptToDots(size.widthPt, dpi), heightDots: ptToDots(size.heightPt, dpi), rotate };
}

function isLandscape(size: MediaSizePt): boolean {
  return size.widthPt > size.heightPt * 1.05;
}

/**
 * Placement of one page on the label, in whole dots. Without `fitToPage` the page is drawn 1:1 at `dpi`
 * from the top-left corner (what does not fit is clipped); with it, the page is scaled to fit and centred.
 */
export function placePage(page: MediaSizePt, label: LabelDots, dpi: number, rotate: PdfiumRotation, fitToPage: boolean): PagePlacement {
  const turned = rotatedSize(page, rotate);
  const width = ptToDots(turned.widthPt, dpi);
  const height = ptToDots(turned.heightPt, dpi);
  if (!fitToPage) return { x: 0, y: 0, width, height, rotate };
  const scale = Math.min(label.widthDots / width, label.heightDots / height);
  // the epsilon keeps a side that fits exactly (812 / 100 * 100 = 811.9999…) from losing a dot to rounding
  const w = Math.max(1, Math.floor(width * scale + 1e-9));
  const h = Math.max(1, Math.floor(height * scale + 1e-9));
  return { x: (label.widthDots - w) >> 1, y: (label.heightDots - h) >> 1, width: w, height: h, rotate };
}
