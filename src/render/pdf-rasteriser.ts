// PDF → page bitmaps inside one pdfium instance: load from memory, lay out each page, render it as grey, threshold or dither.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import { DeviceError } from '../errors';
import type { MonoBitmap } from '../encoders/mono-bitmap';
import { toMono, type GreySource } from './mono';
import type { SimdThreshold } from './mono-simd';
import type { PdfGlyphCache } from './pdf-glyph-cache';
import { PAGE_SIZING, pageLayouter, type PageLayout } from './page-layout';
import type { PageSink, RasterSummary, Rasteriser } from './rasteriser';
import { selectPages, type ResolvedRaster } from './render-options';

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

const LOAD_ERRORS: Record<number, string> = {
  1: 'PDF could not be parsed (unknown error)',
  2: 'PDF could not be read',
  3: 'PDF could not be parsed (not a PDF or damaged)',
  4: 'PDF is password-protected',
  5: 'PDF uses an unsupported security handler',
  6: 'PDF page could not be loaded',
};

/**
 * Rasterises PDFs with one pdfium module; reuses its grey bitmap and dot buffer between pages and jobs, and keeps the
 * standard fonts' glyphs drawn for one job for the next (`glyphs`, of the same module). Thresholds in wasm with `simd`
 * (over the same module's memory) when given, else in JS (mono.ts); dithering is always JS. Not re-entrant.
 */
export class PdfRasteriser implements Rasteriser {
  private bitmap = 0;
  private bitmapSize = '';
  private monoBuffer: Uint8Array | undefined;

  constructor(
    private readonly pdfium: WrappedPdfiumModule,
    private readonly glyphs: PdfGlyphCache,
    private readonly simd: SimdThreshold | undefined,
  ) {}

  /** Renders the selected pages to `sink`, one bitmap each; throws DeviceError RENDER_FAILED with the reason. */
  rasterise(pdf: Uint8Array, opts: ResolvedRaster, sink: PageSink): RasterSummary {
    const heap = this.pdfium.pdfium;
    this.glyphs.beforeDocument();
    const ptr = heap.wasmExports.malloc(Math.max(1, pdf.length));
    if (!ptr) throw new DeviceError('RENDER_FAILED', `PDF of ${pdf.length} bytes does not fit in renderer memory`);
    try {
      heap.HEAPU8.set(pdf, ptr);
      const doc = this.pdfium.FPDF_LoadMemDocument(ptr, pdf.length, '');
      if (!doc) throw new DeviceError('RENDER_FAILED', LOAD_ERRORS[this.pdfium.FPDF_GetLastError()] ?? 'PDF could not be parsed');
      try {
        return this.renderDocument(doc, opts, sink);
      } finally {
        this.pdfium.FPDF_CloseDocument(doc);
      }
    } finally {
      heap.wasmExports.free(ptr);
    }
  }

  private renderDocument(doc: number, opts: ResolvedRaster, sink: PageSink): RasterSummary {
    const documentPages = this.pdfium.FPDF_GetPageCount(doc);
    if (documentPages <= 0) throw new DeviceError('RENDER_FAILED', 'PDF has no pages');
    const pages = selectPages(opts.ranges, documentPages, opts.maxPages);
    const layout = pageLayouter(opts, PAGE_SIZING);
    let first: PageLayout | undefined;
    for (const index of pages) {
      const page = this.pdfium.FPDF_LoadPage(doc, index);
      if (!page) throw new DeviceError('RENDER_FAILED', `PDF page ${index + 1} could not be loaded`);
      try {
        const size = { widthPt: this.pdfium.FPDF_GetPageWidthF(page), heightPt: this.pdfium.FPDF_GetPageHeightF(page) };
        if (!(size.widthPt > 0 && size.heightPt > 0)) throw new DeviceError('RENDER_FAILED', `PDF page ${index + 1} has no size`);
        const placed = layout(size);
        first ??= placed;
        sink(this.renderPage(page, placed, opts.dither));
      } finally {
        this.pdfium.FPDF_ClosePage(page);
      }
    }
    return { pages: pages.length, documentPages, widthDots: first!.canvas.widthDots, heightDots: first!.canvas.heightDots };
  }

  private renderPage(page: number, { canvas, place }: PageLayout, dither: boolean): MonoBitmap {
    const bmp = this.greyBitmap(canvas.widthDots, canvas.heightDots);
    const p = this.pdfium;
    p.FPDFBitmap_FillRect(bmp, 0, 0, canvas.widthDots, canvas.heightDots, WHITE);
    p.FPDF_RenderPageBitmap(bmp, page, place.x, place.y, place.width, place.height, place.rotate, dither ? DITHER_FLAGS : CRISP_FLAGS);
    const grey: GreySource = { src: p.pdfium.HEAPU8, offset: p.FPDFBitmap_GetBuffer(bmp), stride: p.FPDFBitmap_GetStride(bmp), width: canvas.widthDots, height: canvas.heightDots };
    const inWasm = dither ? undefined : this.simd?.threshold(grey);
    if (inWasm) return inWasm;
    const mono = toMono(grey, dither, this.monoBuffer);
    if (mono.data.length > (this.monoBuffer?.length ?? 0)) this.monoBuffer = mono.data;
    return mono;
  }

  private greyBitmap(width: number, height: number): number {
    const key = `${width}x${height}`;
    if (this.bitmap && this.bitmapSize === key) return this.bitmap;
    if (this.bitmap) this.pdfium.FPDFBitmap_Destroy(this.bitmap);
    this.bitmap = this.pdfium.FPDFBitmap_CreateEx(width, height, BITMAP_GRAY, 0, 0);
    this.bitmapSize = key;
    if (!this.bitmap) throw new DeviceError('RENDER_FAILED', `page of ${width}x${height} dots is too large to render`);
    return this.bitmap;
  }
}
