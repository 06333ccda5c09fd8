// A DYMO LabelWriter 450 gadget (vendor 0x0922, product 0x0020, DYMO's 1284 id with an empty CMD) on the guest's real
// USB stack: discovery finds it as a DYMO, a PDF label arrives as LabelWriter raster whose Code 128 and QR code read
// back, and paper out, answered to ESC A on bulk IN, fails a `wait: true` job with 503 before anything is sent.
import { DymoPrinterEmulator } from '../fixtures/dymo-printer';
import { dymoSpec } from './gadget-client';
import { labelGadgetTests } from './label-gadget-tests';

labelGadgetTests({
  spec: dymoSpec(),
  content: 'dymo',
  model: /LabelWriter 450/,
  // the 4x6 in label fitted to the widest label a 450's 2.2 in head takes (DYMO 99014)
  options: { paperSize: 'oe_shipping-label_2.125x4in', fitToPage: true },
  labels: (received) => {
    const emulator = new DymoPrinterEmulator({ model: '450' });
    emulator.feed(received);
    return emulator.printed.map((label) => label.picture);
  },
  // ESC A, after a recovery's run of ESC bytes
  withoutQueries: (received) => Buffer.from(received.toString('latin1').replace(/\x1b+A/g, ''), 'latin1'),
});
