// Picks the conversion from a job's document format to what its printer consumes (PAPPL-style filter choice).
import { DeviceError } from '../errors';
import type { PreparedDocument } from '../kinds/printer-driver';
import type { ContentKind } from '../schemas/printer';
import type { PrintOptions } from '../schemas/print-options';
import type { LabelRenderOptions } from '../render/render-options';
import type { DocumentFormat } from '../spooler/document';

/** Renders a PDF into ZPL labels (the render pool) with `options` (resolution, dithering, label options); resolves to the ZPL bytes. */
export type PdfToZpl = (pdf: Uint8Array, options: LabelRenderOptions, signal: AbortSignal) => Promise<Uint8Array>;

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
    return pdfToZpl(input.bytes, labelRenderOptions(input.options, input.label), signal);
  }
  // ZPL copies repeat the caller's bytes rather than set ^PQ: ZPL passes unmodified (seed 4.5), and a body may hold
  // several formats, each with its own ^PQ, that an inserted ^PQ would change. PDFs we render get ^PQ instead.
  const copies = input.format === 'zpl' ? (input.options.copies ?? 1) : 1;
  return copies === 1 ? input.bytes : repeat(input.bytes, copies);
}

/** Render options of a PDF job for a label printer: the job's label options, the printer's dpi, and `dither` from the job, else the printer. */
export function labelRenderOptions(options: PrintOptions, label: LabelSettings): LabelRenderOptions {
  const { paperSize, pageRange, orientation, fitToPage, copies } = options;
  return { paperSize, pageRange, orientation, fitToPage, copies, dpi: label.dpi, dither: options.dither ?? label.dither };
}

function repeat(bytes: Uint8Array, times: number): Uint8Array {
  const out = new Uint8Array(bytes.length * times);
  for (let i = 0; i < times; i += 1) out.set(bytes, i * bytes.length);
  return out;
}
