// Picks the conversion from a job's document format to what its printer consumes (PAPPL-style filter choice).
import { DeviceError } from '../errors';
import type { PreparedDocument } from '../printers/drivers/driver';
import type { ContentKind } from '../schemas/printer';
import type { PrintOptions } from '../schemas/print-options';
import type { RasterOptions, RenderJob, RenderOutput } from '../render/render-job';
import type { DocumentFormat } from './document';

/** Renders one job (the render service): here, a PDF into ZPL labels. */
export type PdfToZpl = (job: RenderJob, signal: AbortSignal) => Promise<RenderOutput>;

/** Resolution used when a printer's dpi is not known. */
const DEFAULT_DPI = 203;

/** A printer's own PDF render settings: resolution in dpi (undefined: 203) and dithering (undefined: off). */
export interface LabelSettings {
  dpi?: number;
  dither?: boolean;
}

/** Metadata carried to the printer. */
export interface FilterInput {
  bytes: Uint8Array;
  format: Exclude<DocumentFormat, 'auto'>;
  printerContent: ContentKind;
  /** The printer's render settings; used only when a PDF is rendered for a ZPL printer. */
  label: LabelSettings;
  title: string;
  userName: string;
  options: PrintOptions;
}

/**
 * Prepares a document for its printer:
 * - ZPL printer: PDFs are rendered (`pdfToZpl`, see labelRenderOptions); ZPL passes unmodified, sent `copies` times; raw bytes pass untouched.
 * - raw (receipt) printer: bytes pass untouched, options ignored (seed 2.5).
 * - PDF (IPP) printer: PDFs go as application/pdf with options; anything else as application/octet-stream.
 */
export async function prepareForPrinter(input: FilterInput, pdfToZpl: PdfToZpl | null, signal: AbortSignal): Promise<PreparedDocument> {
  const base = { title: input.title, userName: input.userName, options: input.options };
  switch (input.printerContent) {
    case 'zpl':
      return { ...base, mimeType: 'application/vnd.zebra-zpl', bytes: await forZpl(input, pdfToZpl, signal) };
    case 'raw':
      return { ...base, options: {}, mimeType: 'application/octet-stream', bytes: input.bytes };
    case 'pdf':
      return { ...base, mimeType: MIME[input.format], bytes: input.bytes };
  }
}

const MIME: Record<FilterInput['format'], string> = { pdf: 'application/pdf', jpeg: 'image/jpeg', zpl: 'application/octet-stream', raw: 'application/octet-stream' };

async function forZpl(input: FilterInput, pdfToZpl: PdfToZpl | null, signal: AbortSignal): Promise<Uint8Array> {
  if (input.format === 'pdf') {
    if (!pdfToZpl) throw new DeviceError('UNSUPPORTED_CONTENT', 'PDF rendering to ZPL is not available on this device');
    const job: RenderJob = { format: 'pdf', bytes: input.bytes, raster: labelRenderOptions(input.options, input.label), encode: { language: 'zpl', copies: input.options.copies ?? 1 } };
    return (await pdfToZpl(job, signal)).bytes;
  }
  // ZPL copies repeat the caller's bytes rather than set ^PQ: ZPL passes unmodified (seed 4.5), and a body may hold
  // several formats, each with its own ^PQ, that an inserted ^PQ would change. PDFs we render get ^PQ instead.
  const copies = input.format === 'zpl' ? (input.options.copies ?? 1) : 1;
  return copies === 1 ? input.bytes : repeat(input.bytes, copies);
}

/**
 * Raster options of a PDF job for a label printer: the job's label options, the printer's dpi (else 203), and `dither`
 * from the job, else the printer. RasterOptions carries portrait and landscape only: reverse-landscape and
 * reverse-portrait are sent as their unreversed counterparts until it carries all four.
 */
export function labelRenderOptions(options: PrintOptions, label: LabelSettings): RasterOptions {
  const { paperSize, pageRange, fitToPage } = options;
  const orientation = options.orientation === undefined ? undefined : options.orientation.endsWith('landscape') ? 'landscape' : 'portrait';
  return { paperSize, pageRange, orientation, fitToPage, dpi: label.dpi ?? DEFAULT_DPI, dither: options.dither ?? label.dither };
}

function repeat(bytes: Uint8Array, times: number): Uint8Array {
  const out = new Uint8Array(bytes.length * times);
  for (let i = 0; i < times; i += 1) out.set(bytes, i * bytes.length);
  return out;
}
