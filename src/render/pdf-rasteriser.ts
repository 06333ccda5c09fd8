// PDF → ZPL inside one pdfium instance: load from memory, plan the label, render each page as grey, threshold, encode.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import { DeviceError } from '../errors';
import type { MonoBitmap } from '../zpl/graphic-field';
import { placePage, planLabel, type LabelDots, type PdfiumRotation } from './label-geometry';
import { labelZpl } from './label-zpl';
import { blankMono, ditherInto, thresholdAligned, type GreySource } from './mono';
import { selectPages, type ResolvedRenderOptions } from './render-options';

/** What one render produces: the ZPL bytes (ASCII), the document's page count, labels written, label size in dots. */
export interface RenderResult {
  zpl: Uint8Array;
  pageCount: number;
  labels: number;
  widthDots: number;
  heightDots: number;
}

/** pdfium render flags (fpdfview.h). */
const FPDF_ANNOT = 0x01;
const FPDF_PRINTING = 0x800;
const FPDF_RENDER_NO_SMOOTHTEXT = 0x1000;
const FPDF_RENDER_NO_SMOOTHIMAGE = 0x2000;
const FPDF_RENDER_NO_SMOOTHPATH = 0x4000;
/** Barcode-safe: no anti-aliasing anywhere, so every grey pixel is already 0 or 255 for text, paths and images. */
const CRISP_FLAGS = FPDF_ANNOT | FPDF_PRINTING | FPDF_RENDER_NO_SMOOTHTEXT | FPDF_RENDER_NO_SMOOTHIMAGE | FPDF_RENDER_NO_SMOOTHPATH;
/** For dithering: crisp text and paths, smoothly resampled images. */
const DITHER_FLAGS = FPDF_ANNOT | FPDF_PRINTING | FPDF_RENDER_NO_SMOOTHTEXT | FPDF_RENDER_NO_SMOOTHPATH;
/** FPDFBitmap_Gray: one byte per pixel. */
const BITMAP_GRAY = 1;
const WHITE = 0xffffffff;
/** zlib level for label graphics: measured on a 4x6 label, level 3 deflates in a third of level 6's time for ~20% more bytes. */
const LABEL_DEFLATE_LEVEL = 3;

const LOAD_ERRORS: Record<number, string> = {
  1: 'PDF could not be parsed (unknown error)',
  2: 'PDF could not be read',
  3: 'PDF could not be parsed (not a PDF or damaged)',
  4: 'PDF is password-protected',
  5: 'PDF uses an unsupported security handler',
  6: 'PDF page could not be loaded',
};

/** Renders PDFs with one pdfium module; reuses its bitmap and dot buffers between jobs. Not re-entrant. */
export class PdfRenderer {
  private bitmap = 0;
  private bitmapSize = '';
  private monoBuffer: Uint8Array | undefined;

  constructor(private readonly pdfium: WrappedPdfiumModule) {}

  /** Renders the selected pages to one ^XA…^XZ label each; throws DeviceError RENDER_FAILED with the reason. */
  render(pdf: Uint8Array, opts: ResolvedRenderOptions): RenderResult {
    const heap = this.pdfium.pdfium;
    const ptr = heap.wasmExports.malloc(Math.max(1, pdf.length));
    if (!ptr) throw new DeviceError('RENDER_FAILED', `PDF of ${pdf.length} bytes does not fit in renderer memory`);
    try {
      heap.HEAPU8.set(pdf, ptr);
      const doc = this.pdfium.FPDF_LoadMemDocument(ptr, pdf.length, '');
      if (!doc) throw new DeviceError('RENDER_FAILED', LOAD_ERRORS[this.pdfium.FPDF_GetLastError()] ?? 'PDF could not be parsed');
      try {
        return this.renderDocument(doc, opts);
      } finally {
        this.pdfium.FPDF_CloseDocument(doc);
      }
    } finally {
      heap.wasmExports.free(ptr);
    }
  }

  private renderDocument(doc: number, opts: ResolvedRenderOptions): RenderResult {
    const pageCount = this.pdfium.FPDF_GetPageCount(doc);
    if (pageCount <= 0) throw new DeviceError('RENDER_FAILED', 'PDF has no pages');
    const pages = selectPages(opts.ranges, pageCount, opts.maxPages);
    let plan: (LabelDots & { rotate: PdfiumRotation }) | undefined;
    const parts: string[] = [];
    for (const index of pages) {
      const page = this.pdfium.FPDF_LoadPage(doc, index);
      if (!page) throw new DeviceError('RENDER_FAILED', `PDF page ${index + 1} could not be loaded`);
      try {
        const size = { widthPt: this.pdfium.FPDF_GetPageWidthF(page), heightPt: this.pdfium.FPDF_GetPageHeightF(page) };
        if (!(size.widthPt > 0 && size.heightPt > 0)) throw new DeviceError('RENDER_FAILED', `PDF page ${index + 1} has no size`);
        plan ??= planLabel(size, opts.dpi, opts.orientation, opts.forcedSize);
        const mono = this.renderPage(page, placePage(size, plan, opts.dpi, plan.rotate, opts.fitToPage), plan, opts.dither);
        parts.push(labelZpl(mono, opts.copies, LABEL_DEFLATE_LEVEL));
      } finally {
        this.pdfium.FPDF_ClosePage(page);
      }
    }
    const zpl = new TextEncoder().encode(parts.join(''));
    return { zpl, pageCount, labels: parts.length, widthDots: plan!.widthDots, heightDots: plan!.heightDots };
  }

  private renderPage(page: number, place: ReturnType<typeof placePage>, label: LabelDots, dither: boolean): MonoBitmap {
    const bmp = this.greyBitmap(label.widthDots, label.heightDots);
    const p = this.pdfium;
    p.FPDFBitmap_FillRect(bmp, 0, 0, label.widthDots, label.heightDots, WHITE);
    p.FPDF_RenderPageBitmap(bmp, page, place.x, place.y, place.width, place.height, place.rotate, dither ? DITHER_FLAGS : CRISP_FLAGS);
    const grey: GreySource = { src: p.pdfium.HEAPU8, offset: p.FPDFBitmap_GetBuffer(bmp), stride: p.FPDFBitmap_GetStride(bmp), width: label.widthDots, height: label.heightDots };
    const mono = blankMono(label.widthDots, label.heightDots, this.monoBuffer);
    this.monoBuffer = mono.data.length > (this.monoBuffer?.length ?? 0) ? mono.data : this.monoBuffer;
    if (dither) ditherInto(mono, grey, 0, 0);
    else thresholdAligned(mono, grey);
    return mono;
  }

  private greyBitmap(width: number, height: number): number {
    const key = `${width}x${height}`;
    if (this.bitmap && this.bitmapSize === key) return this.bitmap;
    if (this.bitmap) this.pdfium.FPDFBitmap_Destroy(this.bitmap);
    this.bitmap = this.pdfium.FPDFBitmap_CreateEx(width, height, BITMAP_GRAY, 0, 0);
    this.bitmapSize = key;
    if (!this.bitmap) throw new DeviceError('RENDER_FAILED', `label of ${width}x${height} dots is too large to render`);
    return this.bitmap;
  }
}
