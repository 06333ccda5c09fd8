// ZPL (Zebra label printers) as one language module: pass-through with copies, ^GFA labels, `~HS` status, the test label.
import { labelPrinterIpp } from '../label-media';
import type { LanguageModule } from '../printer-language';
import { buildTestLabel } from './test-label-zpl';
import { zplLabelEncoder } from './zpl-label';
import { zplLiveStatus, zplPreflightOver, zplUnprinted } from './zpl-probe';

/** MIME type of ZPL (IPP document-format, PreparedDocument.mimeType). */
export const ZPL_MIME_TYPE = 'application/vnd.zebra-zpl';

/** The ZPL language module: the line of the language table is `zpl: ZPL`. */
export const ZPL: LanguageModule = {
  name: 'zpl',
  content: 'zpl',
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
