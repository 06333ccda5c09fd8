// Documents (printers that take PDF and images themselves: IPP office printers, PDF on a raw socket or USB) as a language module.
import type { DocumentFormat } from '../../schemas/document-format';
import { parseMediaSize } from '../../util/media-size';
import type { PrinterRecord } from '../../schemas/printer';
import { commandWords } from '../command-words';
import type { LanguageModule } from '../printer-language';
import { buildTestPagePdf } from './test-page-pdf';

/** MIME type of each document format a document printer is sent as it is (the others go as application/octet-stream). */
export const DOCUMENT_MIME_TYPES: Readonly<Partial<Record<DocumentFormat, string>>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpeg: 'image/jpeg',
  pwg: 'image/pwg-raster',
  urf: 'image/urf',
};

/** The printer's own document formats (from IPP), application/octet-stream added. */
function ownFormats(printer: PrinterRecord): string[] {
  const own = printer.capabilities?.documentFormatsSupported ?? printer.supportedFormats ?? ['application/pdf'];
  return own.includes('application/octet-stream') ? own : [...own, 'application/octet-stream'];
}

/** The printer's own media (from IPP), else A4 and Letter. */
function officeMedia(printer: PrinterRecord): string[] {
  const own = (printer.capabilities?.mediaSupported ?? []).filter((name) => parseMediaSize(name) !== null);
  return own.length > 0 ? own : ['iso_a4_210x297mm', 'na_letter_8.5x11in'];
}

/** The document language module: nothing is rendered on the device; the printer's content is `pdf`. */
export const DOCUMENT: LanguageModule = {
  name: 'document',
  content: 'pdf',
  displayName: 'PDF',
  defaultDpi: null,
  rank: 30,
  // PDF passed through as a document, as on a raw 9100 socket
  usb: { matches: (id) => commandWords(id).some((word) => word === 'PDF' || word === 'APPLICATION/PDF') },
  transports: ['tcp', 'usb', 'ipp'],
  nativeFormat: 'raw',
  nativeRepeatsCopies: false,
  passThroughMimeType: 'application/octet-stream',
  pages: null,
  ipp: {
    formats: ownFormats,
    declared: {},
    media: officeMedia,
    mediaType: 'stationery',
    mediaSource: 'auto',
    supplyDescription: 'Paper',
    modelText: 'IPP printer',
    commandSet: 'PDF',
    dnsSdKind: 'document',
  },
  // an office printer is never sent a receipt printer's DLE EOT: it could print it
  device: null,
  testDocument: async (_printer, info) => ({ title: 'Test page', data: buildTestPagePdf(info), format: 'pdf', contentType: 'pdf_base64' }),
  rawPortHostQueries: 'remove',
  interruptedJobs: 'fail',
};
