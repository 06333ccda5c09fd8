// EPL2 (Zebra LP/TLP 2844, 3842, G-series in EPL mode) as one language module: its facts and its functions.
import { labelPrinterIpp } from '../label-media';
import type { LanguageModule } from '../printer-language';
import { speaksEpl2 } from './epl2-device-id';
import { epl2EncoderFor } from './epl2-encoder';
import { countEpl2Formats } from './epl2-formats';
import { epl2LiveStatus, epl2Preflight } from './epl2-probe';
import { buildEpl2TestLabel } from './epl2-test-label';

/**
 * MIME type of EPL2 passed through over IPP. EPL has no registered type; this is the vendor type LPrint shares EPL2
 * under (Eltron made EPL), as TSPL's `application/vnd.tsc-tspl` is LPrint's; `application/octet-stream` is offered next to it.
 */
export const EPL2_MIME_TYPE = 'application/vnd.eltron-epl';

/** The EPL2 language module with its table members; the line of the language table is `epl2: EPL2`. */
export const EPL2: LanguageModule = {
  name: 'epl2',
  content: 'epl2',
  transports: ['tcp', 'usb'],
  passThroughMimeType: EPL2_MIME_TYPE,
  nativeFormat: 'raw',
  nativeRepeatsCopies: false,
  pages: { encoderFor: epl2EncoderFor, geometry: 'label' },
  ipp: labelPrinterIpp('EPL2', EPL2_MIME_TYPE, 'raw'),
  // one `^ee` on any transport; never `^@` (it restarts the printer and drops the labels it holds)
  device: { preflight: (transport, timeoutMs) => epl2Preflight(transport, timeoutMs), liveStatus: epl2LiveStatus, overNetwork: true, hostQueries: false },
  testDocument: async (_printer, info) => ({ title: 'Test label', data: Buffer.from(buildEpl2TestLabel(info), 'latin1'), format: 'raw', contentType: 'raw' }),
  // EPL2 has no ZPL host queries; `~HS` in a client's stream is its own (ignored) text
  rawPortHostQueries: 'keep',
  // a duplicate label is better than a lost shipment (as ZPL and TSPL)
  interruptedJobs: 'resend',
  displayName: 'EPL2',
  defaultDpi: 203,
  // after ZPL and TSPL: a printer whose 1284 id lists ZPL or TSPL beside EPL gets the fuller language
  rank: 25,
  usb: { matches: (id) => speaksEpl2(id) },
  // no network probe: `^ee` is a line of text to a receipt printer, so a raw TCP printer is EPL2 when added as `epl2`
  countFormats: countEpl2Formats,
};
