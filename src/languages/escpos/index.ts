// ESC/POS (receipt printers) as one language module: raw bytes pass, documents render to a raster fed and cut, DLE EOT status.
import { RENDERED_FORMATS } from '../label-media';
import { commandWords } from '../command-words';
import type { LanguageModule } from '../printer-language';
import { escposRasterEncoder } from './escpos-raster';
import { escposLiveStatus } from './escpos-status';

/** IPP document-format of ESC/POS passed through. */
export const ESCPOS_MIME_TYPE = 'application/vnd.escpos';

/** Command-set words of receipt printers: Epson ESC/POS and Star's command sets. */
const RECEIPT_WORD = /^(ESC\/POS|ESCPOS|ESC-POS|STAR\w*)$/;

/** The ESC/POS language module; the printer record's content of receipt printers is `raw`. */
export const ESCPOS: LanguageModule = {
  name: 'escpos',
  content: 'raw',
  displayName: 'ESC/POS',
  defaultDpi: 203,
  // tried last: it is also what a byte printer no other language recognises speaks
  rank: 90,
  fallback: true,
  usb: { matches: (id) => commandWords(id).some((word) => RECEIPT_WORD.test(word)) },
  transports: ['tcp', 'usb'],
  nativeFormat: 'raw',
  nativeRepeatsCopies: false,
  passThroughMimeType: 'application/octet-stream',
  pages: { encoderFor: () => escposRasterEncoder, geometry: 'receipt' },
  ipp: {
    formats: () => [...RENDERED_FORMATS, ESCPOS_MIME_TYPE, 'application/octet-stream'],
    declared: { [ESCPOS_MIME_TYPE]: 'raw' },
    media: (printer) => [`roll_receipt-${printer.paperWidth ?? 80}mm_${printer.paperWidth ?? 80}x297mm`],
    mediaType: 'continuous',
    mediaSource: 'main-roll',
    supplyDescription: 'Paper',
    modelText: 'ESC/POS receipt printer',
    commandSet: 'ESCPOS',
    dnsSdKind: 'receipt,roll',
  },
  // a raw 9100 socket may be any printer, so DLE EOT is sent only where a 1284 id says receipt printer (USB); a
  // receipt printer's paper-out never fails a job (seed 4.5.1 rule 3): no pre-flight
  device: { liveStatus: escposLiveStatus, overNetwork: false, hostQueries: false },
  async testDocument(_printer, info) {
    // the receipt encoder is loaded on the first test receipt, not at start-up
    const { buildTestReceipt } = await import('./test-receipt');
    return { title: 'Test receipt', data: Buffer.from(buildTestReceipt(info)), format: 'raw', contentType: 'raw' };
  },
  // a receipt may be an order ticket: a restart fails it with a clear error rather than risk printing it twice
  rawPortHostQueries: 'remove',
  interruptedJobs: 'fail',
};
