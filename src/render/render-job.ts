// What one render is asked to do and what it gives back: the contract between callers, the pool and its workers.

/** Document formats the worker rasterises. */
export type RasterFormat = 'pdf' | 'png' | 'jpeg' | 'pwg' | 'urf';
/** How pages become bitmaps. */
export interface RasterOptions {
  /** Printer resolution, dots per inch (100..600). */
  dpi: number;
  paperSize?: string;
  pageRange?: string;
  orientation?: 'portrait' | 'landscape' | 'reverse-portrait' | 'reverse-landscape';
  fitToPage?: boolean;
  dither?: boolean;
  maxPages?: number;
  /** Receipt printers: the printable width in dots; each page is fitted to it and its length follows. Absent for labels. */
  widthDots?: number;
}
/** The printer language the bitmaps are encoded into. */
export type EncodeSpec = { language: 'zpl'; copies: number } | { language: 'escpos'; copies: number };
/** One render: a document, how to rasterise it, how to encode it. */
export interface RenderJob { format: RasterFormat; bytes: Uint8Array; raster: RasterOptions; encode: EncodeSpec }
/** What a render produced: the printer-language bytes, pages rendered, and the size of the first page in dots. */
export interface RenderOutput { bytes: Uint8Array; pages: number; widthDots: number; heightDots: number }
