// Keeps pdfium's glyph bitmaps of the 14 standard PDF fonts alive from one document to the next.
//
// pdfium shares one face per standard font (Helvetica, Times, Courier, …) between documents, but the glyph bitmaps
// drawn from a face live only while some open document still uses that face: each job's document used to rasterise
// every glyph again (1.0 of a 4x6 label's 3.3 ms of rendering). A small document of ours that uses all 14 fonts, kept
// open, keeps those caches; glyphs drawn for one job are then reused by the next at the same size. The bitmaps are the
// ones FreeType would draw anyway, so what a printer receives does not change. The cache grows with each new size
// drawn, so it is dropped and started afresh every `renewEvery` documents.
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';

/** The 14 standard fonts (PDF 32000-1, 9.6.2.2), each drawn once by the keeper document. */
const STANDARD_FONTS = [
  'Helvetica', 'Helvetica-Bold', 'Helvetica-Oblique', 'Helvetica-BoldOblique',
  'Times-Roman', 'Times-Bold', 'Times-Italic', 'Times-BoldItalic',
  'Courier', 'Courier-Bold', 'Courier-Oblique', 'Courier-BoldOblique',
  'Symbol', 'ZapfDingbats',
] as const;

/** Text fonts take WinAnsiEncoding (as PDF writers emit them); Symbol and ZapfDingbats keep their built-in encoding. */
function fontObject(name: string): string {
  const encoding = name === 'Symbol' || name === 'ZapfDingbats' ? '' : ' /Encoding /WinAnsiEncoding';
  return `<< /Type /Font /Subtype /Type1 /BaseFont /${name}${encoding} >>`;
}

/** A one-page PDF (72 × 72 pt) showing one glyph in each standard font, with a correct cross-reference table. */
export function standardFontsPdf(): Uint8Array {
  const show = STANDARD_FONTS.map((_, i) => `BT /F${i} 4 Tf ${4 + (i % 7) * 9} ${8 + Math.floor(i / 7) * 30} Td (a) Tj ET`).join('\n');
  const fonts = STANDARD_FONTS.map((_, i) => `/F${i} ${i + 5} 0 R`).join(' ');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] /Resources << /Font << ${fonts} >> >> /Contents 4 0 R >>`,
    `<< /Length ${show.length} >>\nstream\n${show}\nendstream`,
    ...STANDARD_FONTS.map(fontObject),
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = text.length;
  const entries = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(text);
}

/** pdfium handles of the open keeper document. */
interface Held {
  ptr: number;
  doc: number;
  page: number;
}

/** Documents rendered before the glyph cache is dropped and started afresh (bounds the memory it holds). */
export const GLYPH_CACHE_RENEW_EVERY = 256;

/**
 * Holds the standard fonts' glyph caches open in one pdfium module. Call `beforeDocument()` before each document is
 * rendered: it opens the keeper on first use and renews it every `renewEvery` documents. Not re-entrant; best effort
 * (a keeper that fails to open only costs the speed-up).
 */
export class PdfGlyphCache {
  private held: Held | undefined;
  private documents = 0;

  constructor(private readonly pdfium: WrappedPdfiumModule, private readonly renewEvery = GLYPH_CACHE_RENEW_EVERY) {}

  /** Keeps the caches open for the next document; every `renewEvery` calls, drops them first. */
  beforeDocument(): void {
    if (this.documents >= this.renewEvery) this.close();
    this.documents += 1;
    this.held ??= this.open();
  }

  /** Closes the keeper document (its caches go when no open document uses them); the next document opens it again. */
  close(): void {
    this.documents = 0;
    if (!this.held) return;
    const { ptr, doc, page } = this.held;
    this.held = undefined;
    this.pdfium.FPDF_ClosePage(page);
    this.pdfium.FPDF_CloseDocument(doc);
    this.pdfium.pdfium.wasmExports.free(ptr);
  }

  private open(): Held | undefined {
    const p = this.pdfium;
    const pdf = standardFontsPdf();
    // pdfium reads a memory document in place for as long as it is open: the bytes stay allocated until close()
    const ptr = p.pdfium.wasmExports.malloc(pdf.length);
    if (!ptr) return undefined;
    p.pdfium.HEAPU8.set(pdf, ptr);
    const doc = p.FPDF_LoadMemDocument(ptr, pdf.length, '');
    const page = doc ? p.FPDF_LoadPage(doc, 0) : 0;
    if (!page) {
      if (doc) p.FPDF_CloseDocument(doc);
      p.pdfium.wasmExports.free(ptr);
      return undefined;
    }
    // drawing the page is what creates each font's glyph cache (a 16-dot bitmap is enough)
    const bitmap = p.FPDFBitmap_CreateEx(16, 16, 1, 0, 0);
    if (bitmap) {
      p.FPDF_RenderPageBitmap(bitmap, page, 0, 0, 16, 16, 0, 0);
      p.FPDFBitmap_Destroy(bitmap);
    }
    return { ptr, doc, page };
  }
}
