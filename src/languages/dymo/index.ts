// DYMO LabelWriter (450, 450 Turbo, 4XL; 550, 550 Turbo, 5XL for status and the test label) as one language module, USB only.
import type { LanguageModule } from '../printer-language';
import { matchesLabelWriter } from './dymo-device-id';
import { dymoEncoderFor, dymoFamilyOf } from './dymo-family';
import { dymoIpp } from './dymo-media';
import { dymoLiveStatus, dymoPreflight } from './dymo-probe';
import { buildDymoTestLabel } from './dymo-test-label';

/**
 * MIME type of LabelWriter raster passed through over IPP. DYMO registered none; this is the vendor type LPrint gives
 * the same bytes (`application/vnd.dymo-lw`), so clients that know LPrint's type can send it here.
 */
export const DYMO_MIME_TYPE = 'application/vnd.dymo-lw';

/** The DYMO language module: the one line a language table needs is `dymo: DYMO`. */
export const DYMO: LanguageModule = {
  name: 'dymo',
  content: 'dymo',
  displayName: 'DYMO LabelWriter',
  defaultDpi: 300,
  // after the languages a 1284 CMD names; a LabelWriter's CMD is empty, its MFG/MDL or USB ids tell it
  rank: 40,
  transports: ['usb'],
  passThroughMimeType: DYMO_MIME_TYPE,
  nativeFormat: 'raw',
  nativeRepeatsCopies: false,
  // the 450 family and the 550 series speak different protocols at the same 300 dpi: the printer's model tells them apart
  pages: { encoderFor: (dpi, model) => dymoEncoderFor(dymoFamilyOf({ model }), dpi), geometry: 'label' },
  ipp: dymoIpp(DYMO_MIME_TYPE),
  // ESC A only on USB, where the 1284 id or the USB ids vouch for a LabelWriter; a raw port's ESC bytes are its own
  device: { preflight: dymoPreflight, liveStatus: dymoLiveStatus, overNetwork: false, hostQueries: false },
  usb: { matches: matchesLabelWriter },
  testDocument: async (printer, info) => ({ title: 'Test label', data: buildDymoTestLabel(printer, info), format: 'raw', contentType: 'raw' }),
  rawPortHostQueries: 'keep',
  // a duplicate label is better than a lost shipment (as ZPL and TSPL)
  interruptedJobs: 'resend',
};
