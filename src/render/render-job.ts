// What one render is asked to do and what it gives back: the contract between callers, the pool and its workers.
import type { LanguageName } from '../languages/printer-language';

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
/** What the bitmaps are encoded into: a printer language, or `png` (a picture of the page, for previews). */
export type EncodeSpec = { language: RenderedLanguage | 'png'; copies: number; model?: string };
/** The printer languages a render writes (those whose module has `pages`; documents are rendered by their printers). */
export type RenderedLanguage = LanguageName;
/** One render: a document, how to rasterise it, how to encode it. */
export interface RenderJob { format: RasterFormat; bytes: Uint8Array; raster: RasterOptions; encode: EncodeSpec }
/** What a render produced: the encoded bytes, pages rendered, pages the document has, and the size of the first page in dots. */
export interface RenderOutput { bytes: Uint8Array; pages: number; documentPages: number; widthDots: number; heightDots: number }
