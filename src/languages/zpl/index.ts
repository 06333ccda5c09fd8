// ZPL (Zebra label printers) as one language module: pass-through with copies, ^GFA labels, `~HS` status, the test label.
import { labelPrinterIpp } from '../label-media';
import type { LanguageModule } from '../printer-language';
import { commandWords } from '../command-words';
import { buildTestLabel } from './test-label-zpl';
import { countFormats } from './zpl-formats';
import { ZPL_HOST_QUERIES } from './zpl-host-queries';
import { zplLabelEncoder } from './zpl-label';
import { answersHostStatus, zplLiveStatus, zplPreflightOver, zplUnprinted } from './zpl-probe';

/** Command-set words of ZPL printers in a 1284 id (`ZPL`, `ZPL2`, `ZPLII`). */
const ZPL_WORD = /^ZPL/;

/** MIME type of ZPL (IPP document-format, PreparedDocument.mimeType). */
export const ZPL_MIME_TYPE = 'application/vnd.zebra-zpl';

/** The ZPL language module: the line of the language table is `zpl: ZPL`. */
export const ZPL: LanguageModule = {
  name: 'zpl',
  content: 'zpl',
  displayName: 'ZPL',
  defaultDpi: 203,
  // first: a printer listing ZPL and TSPL gets ZPL, the language with pre-flight recovery and unprinted-label counts
  rank: 10,
  usb: { matches: (id) => commandWords(id).some((word) => ZPL_WORD.test(word)) },
  // decisions.md: a raw TCP printer that answers `~HS` is ZPL
  probe: answersHostStatus,
  countFormats,
  rawPortQueries: ZPL_HOST_QUERIES,
  transports: ['tcp', 'usb'],
  passThroughMimeType: ZPL_MIME_TYPE,
  // ZPL copies repeat the caller's bytes rather than set ^PQ: ZPL passes unmodified (seed 4.5), and a body may hold
  // several formats, each with its own ^PQ, that an inserted ^PQ would change. Rendered documents get ^PQ instead.
  nativeFormat: 'zpl',
  nativeRepeatsCopies: true,
  pages: { encoderFor: () => zplLabelEncoder, geometry: 'label' },
  ipp: labelPrinterIpp('ZPL', ZPL_MIME_TYPE, 'zpl'),
  device: { preflight: zplPreflightOver, liveStatus: zplLiveStatus, unprinted: zplUnprinted, overNetwork: true, hostQueries: true },
  testDocument: async (_printer, info) => ({ title: 'Test label', data: Buffer.from(buildTestLabel(info), 'utf8'), format: 'zpl', contentType: 'zpl' }),
  // a duplicate label is better than a lost shipment
  rawPortHostQueries: 'answer',
  interruptedJobs: 'resend',
};
