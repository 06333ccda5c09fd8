// Filters looked up by (document format, printer language): pass bytes through, or render them in the worker pool.
import { DeviceError } from '../errors';
import type { RasterFormat, RenderedLanguage, RenderJob, RenderOutput } from '../render/render-job';
import type { PrintOptions } from '../schemas/print-options';
import { LANGUAGES, type LanguageModule, type LanguageName } from '../languages';
import { DOCUMENT_MIME_TYPES } from '../languages/document';
import type { DocumentFormat } from './document-format';

/** What a printer consumes: a language of the table in src/languages. */
export type PrinterLanguage = LanguageName;

/** Renders a document into printer-language bytes (the worker pool). */
export type Render = (job: RenderJob, signal: AbortSignal) => Promise<RenderOutput>;

/** A printer's own render settings: resolution in dpi (undefined: the language's default), dithering (undefined: off), receipt paper width in mm (undefined: 80). */
export interface RenderSettings {
  dpi?: number;
  dither?: boolean;
  paperWidth?: 58 | 80;
  /** The printer's model, for a language whose protocol differs by model (src/languages `encoderFor`). */
  model?: string;
}

/** One document on its way to one printer. */
export interface FilterInput {
  bytes: Uint8Array;
  format: DocumentFormat;
  language: PrinterLanguage;
  printer: RenderSettings;
  title: string;
  userName: string;
  options: PrintOptions;
}

/** A document ready for the wire: `bytes` sent `copies` times in a row (never held that many times), with its MIME type for printers that care (IPP). */
export interface PreparedDocument {
  bytes: Uint8Array;
  /** How many times a byte-stream printer is sent `bytes` (ZPL copies); 1 otherwise. IPP sends copies as an attribute. */
  repeat: number;
  mimeType: string;
  title: string;
  userName: string;
  options: PrintOptions;
}

/** One conversion: from the input to what the printer takes. */
type Filter = (input: FilterInput, render: Render | null, signal: AbortSignal) => Promise<PreparedDocument>;

/** Printable width of receipt paper in mm (80 mm rolls print 72 mm, 58 mm rolls 48 mm). */
const PRINTABLE_MM: Record<58 | 80, number> = { 58: 48, 80: 72 };

/** Formats rasterised by the worker pool on their way to a printer that does not take documents itself. */
const RASTER_FORMATS: ReadonlySet<DocumentFormat> = new Set<RasterFormat>(['pdf', 'png', 'jpeg', 'pwg', 'urf']);

/** The bytes unchanged as `mimeType`, sent `copies` times over when `repeatCopies`, else once; options are the printer's business (IPP) or ignored (seed 2.5). */
const passThrough = (mimeType: string, repeatCopies: boolean): Filter => async (input) => ({
  ...meta(input),
  mimeType,
  bytes: input.bytes,
  repeat: repeatCopies ? (input.options.copies ?? 1) : 1,
});

/** Rendered into the printer's language by the worker pool. */
const rendered = (language: RenderedLanguage, mimeType: string): Filter => async (input, render, signal) => {
  const format = input.format as RasterFormat;
  if (!render) throw new DeviceError('UNSUPPORTED_CONTENT', `rendering ${format} is not available on this device`);
  const out = await render(renderJob(input, format, language), signal);
  return { ...meta(input), mimeType, bytes: out.bytes, repeat: 1 };
};

/** The filter of `format` to a printer of `language`: rendered when the language draws pages and the format is a raster one, else passed through. */
function filterOf(format: DocumentFormat, language: LanguageModule): Filter {
  if (language.pages && RASTER_FORMATS.has(format)) return rendered(language.name, language.passThroughMimeType);
  const mimeType = language.pages ? language.passThroughMimeType : (DOCUMENT_MIME_TYPES[format] ?? language.passThroughMimeType);
  return passThrough(mimeType, language.nativeRepeatsCopies && language.nativeFormat === format);
}

/**
 * Prepares a document for its printer by its language (src/languages):
 * - label printers: their language passes unmodified (sent `copies` times when it repeats copies); PDFs and images render to labels with copies; raw passes.
 * - receipt printers: raw bytes pass untouched (options ignored); PDFs and images render to ESC/POS raster, fed and cut.
 * - document printers: the bytes go with their MIME type and the options; anything unknown as application/octet-stream.
 */
export function createFilters(render: Render | null): (input: FilterInput, signal: AbortSignal) => Promise<PreparedDocument> {
  return (input, signal) => filterOf(input.format, LANGUAGES[input.language])(input, render, signal);
}

function meta(input: FilterInput): Pick<PreparedDocument, 'title' | 'userName' | 'options'> {
  const receiptOrLabel = LANGUAGES[input.language].pages !== null;
  return { title: input.title, userName: input.userName, options: receiptOrLabel && input.format === 'raw' ? {} : input.options };
}

/** The render request of a document for a printer of a page-drawing `language`: the job's options, the printer's dpi, dithering and paper. */
export function renderJob(input: FilterInput, format: RasterFormat, language: RenderedLanguage): RenderJob {
  const { paperSize, pageRange, orientation, fitToPage, copies, dither } = input.options;
  const dpi = input.printer.dpi ?? LANGUAGES[language].defaultDpi ?? 203;
  const common = { dpi, pageRange, orientation, fitToPage, dither: dither ?? input.printer.dither ?? false };
  const encode = { language, copies: copies ?? 1, ...(input.printer.model ? { model: input.printer.model } : {}) };
  if (LANGUAGES[language].pages?.geometry !== 'receipt') return { format, bytes: input.bytes, raster: { ...common, paperSize }, encode };
  // printers count whole dots per mm: 203 dpi heads are 8 dots/mm (576 dots on 72 mm), 300 dpi heads 12
  const widthDots = PRINTABLE_MM[input.printer.paperWidth ?? 80] * Math.round(dpi / 25.4);
  return { format, bytes: input.bytes, raster: { ...common, widthDots }, encode };
}
