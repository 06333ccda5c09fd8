// The checks every label-printer gadget of a language passes in the guest: found by discovery as its language, a PDF
// label arrives in that language with its Code 128 and QR code readable, and paper out answered to the language's
// status query fails a `wait: true` job with 503 before anything but status queries is sent.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';
import { libusbBackend } from '../../src/usb/libusb-backend';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { valueWithin } from '../helpers/until';
import { readLabelBarcodes } from '../render/barcode-reader';
import type { GadgetSpec } from './gadget-configfs';
import { GadgetPrinter } from './gadget-client';
import { listedPrinter } from './listed-printer';

/** One language's gadget and how to read what it got. */
export interface LabelGadget {
  spec: GadgetSpec;
  /** The printer record's `content` and a pattern of its `model`. */
  content: string;
  model: RegExp;
  /** Print options that make the shipping label fit the printer's head. */
  options?: Record<string, unknown>;
  /** The labels in the bytes the gadget read (replayed to the language's emulator). */
  labels(received: Buffer): MonoBitmap[];
  /** The bytes read with the language's status queries taken out. */
  withoutQueries(received: Buffer): Buffer;
}

/** Starts the gadget and an in-process daemon on the guest's libusb, and registers the three checks; `handle` gets both. */
export function labelGadgetTests(gadgetOf: LabelGadget, handle: (gadget: GadgetPrinter, d: InProcessDaemon) => void = () => undefined): void {
  const path = `usb_sn_${gadgetOf.spec.serialNumber}`;
  let gadget: GadgetPrinter;
  let d: InProcessDaemon;
  const label = async () => ({ content: Buffer.from(await shippingLabelPdf()).toString('base64'), contentType: 'pdf_base64', ...(gadgetOf.options ? { options: gadgetOf.options } : {}) });

  before(async () => {
    gadget = await GadgetPrinter.start(gadgetOf.spec);
    d = await startInProcess({ usb: libusbBackend });
    handle(gadget, d);
  });
  after(async () => {
    await d?.stop();
    await gadget?.stop();
  });

  test(`discovery finds the gadget as ${gadgetOf.content}`, async () => {
    const printer = await valueWithin(`${path} is listed`, 30_000, () => listedPrinter(d, path));
    assert.equal(printer.content, gadgetOf.content);
    assert.match(printer.model, gadgetOf.model);
  });

  test(`a PDF label arrives as ${gadgetOf.content}, and its Code 128 and QR code read back`, async () => {
    await valueWithin(`${path} is listed`, 30_000, () => listedPrinter(d, path));
    await gadget.clear();
    const res = await d.api('POST', `/print/${path}`, { body: await label() });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.result.content.state, 'completed');
    const [printed] = await valueWithin('the gadget read a whole label', 30_000, async () => {
      const labels = gadgetOf.labels(await gadget.received());
      return labels.length > 0 ? labels : null;
    });
    const codes = (await readLabelBarcodes(printed, printed.width)).filter((r) => r.isValid).map((r) => `${r.format}:${r.text}`);
    assert.ok(codes.includes('Code128:1Z999AA10123456784'), JSON.stringify(codes));
    assert.ok(codes.includes('QRCode:https://example.com/t/1Z999AA10123456784'), JSON.stringify(codes));
  });

  test('paper out, answered to the status query, fails a wait:true job with 503 and only status queries are sent', async () => {
    await valueWithin(`${path} is listed`, 30_000, () => listedPrinter(d, path));
    await gadget.set({ paperOut: true });
    await gadget.clear();
    try {
      const res = await d.api('POST', `/print/${path}`, { body: { ...(await label()), wait: true } });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.result.content.ready, false);
      assert.equal(res.body.result.content.paperOut, true);
      const received = await gadget.received();
      assert.ok(received.length > 0, 'the status query was sent');
      assert.equal(gadgetOf.withoutQueries(received).length, 0, 'only status queries reached the printer');
    } finally {
      await gadget.set({ paperOut: false });
    }
    const again = await d.api('POST', `/print/${path}`, { body: await label() });
    assert.equal(again.status, 200, `paper back: ${JSON.stringify(again.body)}`);
  });
}
