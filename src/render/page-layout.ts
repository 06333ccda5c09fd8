// Where each page of a document lands, in dots: on a label (first page sets the label size) or on a receipt roll.
import { DeviceError } from '../errors';
import { placePage, planLabel, ptToDots, rotatedSize, rotationFor, type LabelDots, type PagePlacement, type PdfiumRotation } from './label-geometry';
import type { MediaSizePt } from '../util/media-size';
import type { ResolvedRaster } from './render-options';

/** One page's bitmap size (`canvas`, dots) and where the page is drawn on it (dots, with its rotation). */
export interface PageLayout {
  canvas: LabelDots;
  place: PagePlacement;
}

/** How a kind of document is sized beyond the shared rules. */
export interface Sizing {
  /** With `paperSize` on a label, scale the page into the label (aspect kept, centred) even without fitToPage. */
  fitToForcedSize: boolean;
  /** On a receipt, scale pages narrower than the paper up to its width; otherwise only fitToPage does. */
  growToReceiptWidth: boolean;
}

/** PDF pages: 1:1 on labels unless fitToPage; always the full receipt width. */
export const PAGE_SIZING: Sizing = { fitToForcedSize: false, growToReceiptWidth: true };
/** Images: fitted into a paperSize label; on receipts only shrunk to the width unless fitToPage. */
export const IMAGE_SIZING: Sizing = { fitToForcedSize: true, growToReceiptWidth: false };

/** Longest receipt page accepted, in dots (3.7 m at 203 dpi), so a sliver of a page cannot exhaust memory. */
const MAX_RECEIPT_LENGTH_DOTS = 30_000;

/**
 * Lays out the pages of one document (sizes in points, before orientation), one call per page in order.
 * Labels: the first page (or `paperSize`) sets the label; pages go 1:1 from the top-left corner, or fitted and centred.
 * Receipts (`widthDots`): each page is turned, then scaled to the printable width per `sizing`, left-aligned; its length follows.
 */
export function pageLayouter(opts: ResolvedRaster, sizing: Sizing): (page: MediaSizePt) => PageLayout {
  if (opts.widthDots !== null) {
    const widthDots = opts.widthDots;
    const rotate = rotationFor(opts.orientation);
    return (page) => receiptLayout(page, opts.dpi, widthDots, rotate, sizing.growToReceiptWidth || opts.fitToPage);
  }
  let plan: (LabelDots & { rotate: PdfiumRotation }) | undefined;
  const fit = opts.fitToPage || (sizing.fitToForcedSize && opts.forcedSize !== null);
  return (page) => {
    plan ??= planLabel(page, opts.dpi, opts.orientation, opts.forcedSize);
    return { canvas: plan, place: placePage(page, plan, opts.dpi, plan.rotate, fit) };
  };
}

function receiptLayout(page: MediaSizePt, dpi: number, widthDots: number, rotate: PdfiumRotation, grow: boolean): PageLayout {
  const turned = rotatedSize(page, rotate);
  const natural = ptToDots(turned.widthPt, dpi);
  const width = grow || natural > widthDots ? widthDots : natural;
  const height = Math.max(1, Math.round((turned.heightPt * width) / turned.widthPt));
  if (height > MAX_RECEIPT_LENGTH_DOTS) throw new DeviceError('RENDER_FAILED', `a page would be ${height} dots long on the receipt, more than the limit of ${MAX_RECEIPT_LENGTH_DOTS}`);
  return { canvas: { widthDots, heightDots: height }, place: { x: 0, y: 0, width, height, rotate } };
}
