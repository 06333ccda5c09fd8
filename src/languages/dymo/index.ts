// DYMO LabelWriter (450, 450 Turbo, 4XL; 550, 550 Turbo, 5XL for status and the test label) as one language module, USB only.
import type { ContentKind } from '../../schemas/printer';
import type { DeviceId } from '../../usb/ieee1284';
import type { LanguageModule, LanguageName } from '../printer-language';
import { matchesLabelWriter } from './dymo-device-id';
import { dymoEncoderFor } from './dymo-family';
import { dymoIpp } from './dymo-media';
import { dymoLiveStatus, dymoPreflight } from './dymo-probe';
import { buildDymoTestLabel } from './dymo-test-label';

/**
 * MIME type of LabelWriter raster passed through over IPP. DYMO registered none; this is the vendor type LPrint gives
 * the same bytes (`application/vnd.dymo-lw`), so clients that know LPrint's type can send it here.
 */
export const DYMO_MIME_TYPE = 'application/vnd.dymo-lw';

/** The members the language table refactor adds to LanguageModule, provided now. */
export interface DymoTableFacts {
  readonly displayName: string;
  readonly defaultDpi: number;
  readonly rank: number;
  readonly usb: { matches(id: DeviceId, device: { vendorId: number; productId: number }): boolean };
  readonly probe?: never;
}

/** The DYMO language module: the one line a language table needs is `dymo: DYMO`. */
export const DYMO: LanguageModule & DymoTableFacts = {
  // 'dymo' joins LanguageName and ContentKind with the table refactor; until then these are cast
  name: 'dymo' as LanguageName,
  content: 'dymo' as ContentKind,
  displayName: 'DYMO LabelWriter',
  defaultDpi: 300,
  rank: 30,
  transports: ['usb'],
  passThroughMimeType: DYMO_MIME_TYPE,
  nativeFormat: 'raw',
  nativeRepeatsCopies: false,
  // encoderFor gets only the dpi, which does not tell a 450 from a 550 (both 300): rendered pages go out as 450 raster
  // until the interface passes the printer; the test label, which has the printer, picks by dymoFamilyOf
  pages: { encoderFor: (dpi) => dymoEncoderFor('450', dpi), geometry: 'label' },
  ipp: dymoIpp(DYMO_MIME_TYPE),
  // ESC A only on USB, where the 1284 id or the USB ids vouch for a LabelWriter; a raw port's ESC bytes are its own
  device: { preflight: dymoPreflight, liveStatus: dymoLiveStatus, overNetwork: false, hostQueries: false },
  usb: { matches: matchesLabelWriter },
  testDocument: async (printer, info) => ({ title: 'Test label', data: buildDymoTestLabel(printer, info), format: 'raw', contentType: 'raw' }),
  rawPortHostQueries: 'keep',
  // a duplicate label is better than a lost shipment (as ZPL and TSPL)
  interruptedJobs: 'resend',
};
