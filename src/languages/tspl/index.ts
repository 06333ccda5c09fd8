// TSPL (TSC, Godex, Xprinter and most cheap label printers) as one language module.
import { labelPrinterIpp } from '../label-media';
import type { LanguageModule } from '../printer-language';
import { speaksTspl } from './tspl-device-id';
import { tsplEncoderWith } from './tspl-encoder';
import { tsplLiveStatus, tsplPreflight } from './tspl-probe';
import { buildTsplTestLabel } from './tspl-test-label';

/**
 * MIME type of TSPL passed through over IPP. TSPL has no registered type; this vendor type follows the project's
 * `application/vnd.escpos`, and `application/octet-stream` is offered next to it for clients that send raw bytes.
 */
export const TSPL_MIME_TYPE = 'application/vnd.tsc-tspl';

/** The TSPL language module: the one line a language table needs is `tspl: TSPL`. */
export const TSPL: LanguageModule = {
  name: 'tspl',
  content: 'tspl',
  displayName: 'TSPL',
  defaultDpi: 203,
  rank: 20,
  usb: { matches: (id) => speaksTspl(id) },
  passThroughMimeType: TSPL_MIME_TYPE,
  nativeFormat: 'raw',
  nativeRepeatsCopies: false,
  transports: ['tcp', 'usb'],
  pages: { encoderFor: (dpi) => tsplEncoderWith({ dpi }), geometry: 'label' },
  ipp: labelPrinterIpp('TSPL', TSPL_MIME_TYPE, 'raw'),
  // one `<ESC>!?` on any transport; never `<ESC>!R` (it restarts the printer and drops the labels it holds)
  device: { preflight: (transport, timeoutMs) => tsplPreflight(transport, timeoutMs), liveStatus: tsplLiveStatus, overNetwork: true, hostQueries: false },
  testDocument: async (_printer, info) => ({ title: 'Test label', data: Buffer.from(buildTsplTestLabel(info), 'latin1'), format: 'raw', contentType: 'raw' }),
  // a duplicate label is better than a lost shipment (as ZPL)
  rawPortHostQueries: 'keep',
  interruptedJobs: 'resend',
};
