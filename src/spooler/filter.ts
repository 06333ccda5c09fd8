// Picks the conversion from a job's document format to what its printer consumes (PAPPL-style filter choice).
import { DeviceError } from '../errors';
import type { PreparedDocument } from '../printers/drivers/driver';
import type { ContentKind } from '../schemas/printer';
import type { PrintOptions } from '../schemas/print-options';
import type { DocumentFormat } from './document';

/** Renders a PDF into ZPL labels (the render pool); `dpi` is the printer's resolution. */
export type PdfToZpl = (pdf: Uint8Array, options: PrintOptions, signal: AbortSignal) => Promise<Uint8Array>;

/** Metadata carried to the printer. */
export interface FilterInput {
  bytes: Uint8Array;
  format: Exclude<DocumentFormat, 'auto'>;
  printerContent: ContentKind;
  title: string;
  userName: string;
  options: PrintOptions;
}

/**
 * Prepares a document for its printer:
 * - ZPL printer: PDFs are rendered (`pdfToZpl`); ZPL passes unmodified, sent `copies` times; raw bytes pass untouched.
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
    return pdfToZpl(input.bytes, input.options, signal);
  }
  const copies = input.format === 'zpl' ? (input.options.copies ?? 1) : 1;
  return copies === 1 ? input.bytes : repeat(input.bytes, copies);
}

function repeat(bytes: Uint8Array, times: number): Uint8Array {
  const out = new Uint8Array(bytes.length * times);
  for (let i = 0; i < times; i += 1) out.set(bytes, i * bytes.length);
  return out;
}
