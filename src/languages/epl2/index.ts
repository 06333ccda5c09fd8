// EPL2 (Zebra LP/TLP 2844, 3842, G-series in EPL mode) as one language module: its facts and its functions.
import type { ContentKind } from '../../schemas/printer';
import type { Transport } from '../../transports/transport';
import type { DeviceId } from '../../usb/ieee1284';
import { labelPrinterIpp } from '../label-media';
import type { LanguageModule, LanguageName } from '../printer-language';
import { speaksEpl2 } from './epl2-device-id';
import { epl2EncoderFor } from './epl2-encoder';
import { countEpl2Formats } from './epl2-formats';
import { epl2LiveStatus, epl2Preflight, epl2Probe } from './epl2-probe';
import { buildEpl2TestLabel } from './epl2-test-label';

/**
 * MIME type of EPL2 passed through over IPP. EPL has no registered type; this is the vendor type LPrint shares EPL2
 * under (Eltron made EPL), as TSPL's `application/vnd.tsc-tspl` is LPrint's; `application/octet-stream` is offered next to it.
 */
export const EPL2_MIME_TYPE = 'application/vnd.eltron-epl';

/** The members the language table's refactor adds to every language, written here ahead of it. */
export interface Epl2TableMembers {
  /** The language's name in texts. */
  readonly displayName: string;
  /** Resolution of a printer whose resolution nothing tells (the LP/TLP 2844: 203 dpi). */
  readonly defaultDpi: number;
  /** Place in the order languages are tried (probes, 1284 ids); lower first. */
  readonly rank: number;
  /** Whether a USB printer speaks it, from its IEEE 1284 id and its USB ids. */
  readonly usb: { matches(id: DeviceId, device: { vendorId: number; productId: number }): boolean };
  /** True when a printer on a network socket answers as this language does (see epl2Probe for what it sends). */
  probe(transport: Transport, timeoutMs: number): Promise<boolean>;
  /** Labels the language's bytes print (P commands). */
  countFormats(bytes: Uint8Array): number;
}

/** The EPL2 language module with its table members; the line of the language table is `epl2: EPL2`. */
export const EPL2: LanguageModule & Epl2TableMembers = {
  // `epl2` joins LanguageName and ContentKind when the table that derives them lists it
  name: 'epl2' as string as LanguageName,
  content: 'epl2' as string as ContentKind,
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
  // after ZPL and TSPL, whose probes are harmless where this one is not (epl2Probe); 25 until the table sets the scale
  rank: 25,
  usb: { matches: (id) => speaksEpl2(id) },
  probe: epl2Probe,
  countFormats: countEpl2Formats,
};
