// A DYMO LabelWriter 450 gadget (vendor 0x0922, product 0x0020, DYMO's 1284 id with an empty CMD) on the guest's real
// USB stack: discovery finds it as a DYMO, a PDF label arrives as LabelWriter raster whose Code 128 and QR code read
// back, and paper out, answered to ESC A on bulk IN, fails a `wait: true` job with 503 before anything is sent.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { libusbBackend } from '../../src/usb/libusb-backend';
import { DymoPrinterEmulator } from '../fixtures/dymo-printer';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { valueWithin } from '../helpers/until';
import { readLabelBarcodes } from '../render/barcode-reader';
import { dymoSpec, GadgetPrinter } from './gadget-client';
import { listedPrinter } from './listed-printer';

const PATH = 'usb_sn_01010112345600';
let gadget: GadgetPrinter;
let d: InProcessDaemon;

before(async () => {
  gadget = await GadgetPrinter.start(dymoSpec());
  d = await startInProcess({ usb: libusbBackend });
});
after(async () => {
  await d?.stop();
  await gadget?.stop();
});

/** What the gadget read, replayed to a LabelWriter emulator: the labels it printed. */
async function printedLabels() {
  const emulator = new DymoPrinterEmulator({ model: '450' });
  emulator.feed(await gadget.received());
  return emulator.printed;
}

test('discovery finds the gadget as a DYMO LabelWriter', async () => {
  const printer = await valueWithin(`${PATH} is listed`, 30_000, () => listedPrinter(d, PATH));
  assert.equal(printer.content, 'dymo');
  assert.match(printer.model, /LabelWriter 450/);
});

test('a PDF label fitted to a 2.125 x 4 in shipping label arrives as LabelWriter raster, and its Code 128 and QR code read back', async () => {
  await valueWithin(`${PATH} is listed`, 30_000, () => listedPrinter(d, PATH));
  await gadget.clear();
  // the 4x6 in label fitted to the widest label a 450's 2.2 in head takes (DYMO 99014)
  const options = { paperSize: 'oe_shipping-label_2.125x4in', fitToPage: true };
  const body = { content: Buffer.from(await shippingLabelPdf()).toString('base64'), contentType: 'pdf_base64', options };
  const res = await d.api('POST', `/print/${PATH}`, { body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.result.content.state, 'completed');
  const [label] = await valueWithin('the gadget read a whole label', 30_000, async () => {
    const labels = await printedLabels();
    return labels.length > 0 ? labels : null;
  });
  const codes = (await readLabelBarcodes(label.picture, label.picture.width)).filter((r) => r.isValid).map((r) => `${r.format}:${r.text}`);
  assert.ok(codes.includes('Code128:1Z999AA10123456784'), JSON.stringify(codes));
  assert.ok(codes.includes('QRCode:https://example.com/t/1Z999AA10123456784'), JSON.stringify(codes));
});

test('paper out, answered to ESC A, fails a wait:true job with 503 and nothing but status queries is sent', async () => {
  await valueWithin(`${PATH} is listed`, 30_000, () => listedPrinter(d, PATH));
  await gadget.set({ paperOut: true });
  await gadget.clear();
  try {
    const body = { content: Buffer.from(await shippingLabelPdf()).toString('base64'), contentType: 'pdf_base64', wait: true };
    const res = await d.api('POST', `/print/${PATH}`, { body });
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(res.body.result.content.ready, false);
    assert.equal(res.body.result.content.paperOut, true);
    const sent = (await gadget.received()).toString('latin1');
    assert.ok(sent.length > 0, 'the status query was sent');
    assert.equal(sent.replace(/\x1b+A/g, ''), '', 'only ESC A status queries reached the printer');
    assert.equal((await printedLabels()).length, 0);
  } finally {
    await gadget.set({ paperOut: false });
  }
  const again = await d.api('POST', `/print/${PATH}`, { body: { content: Buffer.from(await shippingLabelPdf()).toString('base64'), contentType: 'pdf_base64' } });
  assert.equal(again.status, 200, `paper back: ${JSON.stringify(again.body)}`);
});
