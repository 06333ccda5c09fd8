// Document formats a shared printer takes over IPP (printer-sharing.md), and the spooler format each one is declared as.
import type { DeclaredFormat } from '../filters/document-format';
import type { PrinterLanguage } from '../filters/filters';
import { LANGUAGES } from '../languages';
import type { PrinterRecord } from '../schemas/printer';

/** MIME type → the format the spooler is given; each language adds its own; `application/octet-stream` is recognised from the bytes. */
const DECLARED: Record<string, DeclaredFormat> = {
  'application/pdf': 'pdf',
  'image/pwg-raster': 'pwg',
  'image/urf': 'urf',
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  ...Object.assign({}, ...Object.values(LANGUAGES).map((language) => language.ipp.declared)),
  'application/octet-stream': 'auto',
};

/** document-format-supported of a printer consuming `language`: label and receipt printers per printer-sharing.md, office printers their own list. */
export function formatsOf(printer: PrinterRecord, language: PrinterLanguage): string[] {
  return LANGUAGES[language].ipp.formats(printer);
}

/** The spooler format of a document sent as `mime`; office printers get what they take passed through, as sniffed. */
export function declaredFormat(mime: string, language: PrinterLanguage): DeclaredFormat {
  return DECLARED[mime] ?? (LANGUAGES[language].pages === null ? 'auto' : 'raw');
}
