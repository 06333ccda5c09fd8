// Document formats a shared printer takes over IPP (printer-sharing.md), and the spooler format each one is declared as.
import type { DeclaredFormat } from '../filters/document-format';
import type { PrinterLanguage } from '../filters/filters';
import type { PrinterRecord } from '../schemas/printer';

/** What phones and CUPS send, rendered on the device for label and receipt printers. */
const RENDERED = ['application/pdf', 'image/pwg-raster', 'image/urf', 'image/jpeg', 'image/png'];

/** MIME type → the format the spooler is given; `application/octet-stream` is recognised from the bytes. */
const DECLARED: Record<string, DeclaredFormat> = {
  'application/pdf': 'pdf',
  'image/pwg-raster': 'pwg',
  'image/urf': 'urf',
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'application/vnd.zebra-zpl': 'zpl',
  'application/vnd.escpos': 'raw',
  'application/octet-stream': 'auto',
};

/** document-format-supported of a printer consuming `language`: label and receipt printers per printer-sharing.md, office printers their own list. */
export function formatsOf(printer: PrinterRecord, language: PrinterLanguage): string[] {
  switch (language) {
    case 'zpl':
      return [...RENDERED, 'application/vnd.zebra-zpl', 'application/octet-stream'];
    case 'escpos':
      return [...RENDERED, 'application/vnd.escpos', 'application/octet-stream'];
    case 'document': {
      const own = printer.capabilities?.documentFormatsSupported ?? printer.supportedFormats ?? ['application/pdf'];
      return own.includes('application/octet-stream') ? own : [...own, 'application/octet-stream'];
    }
  }
}

/** The spooler format of a document sent as `mime`; office printers get what they take passed through, as sniffed. */
export function declaredFormat(mime: string, language: PrinterLanguage): DeclaredFormat {
  return DECLARED[mime] ?? (language === 'document' ? 'auto' : 'raw');
}
