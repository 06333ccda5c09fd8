// The shipping label PDF rendered by the project's pipeline, encoded to EPL2, sent over TCP to the EPL2 emulator and
// read back as a picture: the rendered page dot for dot, its Code 128 and QR code read by zxing; copies; failures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MonoBitmap } from '../../../src/encoders/mono-bitmap';
import { EPL2 } from '../../../src/languages/epl2';
import type { TcpTransport } from '../../../src/transports/tcp-transport';
import { Epl2PrinterEmulator } from '../../fixtures/epl2-printer';
import { shippingLabelPdf } from '../../fixtures/pdf/barcode-pdf';
import { readLabelBarcodes } from '../../render/barcode-reader';
import { renderPdfPages } from '../../render/pdfium-fixture';
import { patternedPages } from '../patterned-pages';
import { countBlack } from '../../render/zpl-label-decode';
import { epl2OverTcp } from './epl2-over-tcp';

const printer = new Epl2PrinterEmulator();
let transport: TcpTransport;

epl2OverTcp(printer, (t) => { transport = t; });

/** `pages` encoded by the module's encoder at 203 dpi, `copies` each. */
function encode(pages: MonoBitmap[], copies: number): Uint8Array {
  const encoder = EPL2.pages!.encoderFor(203)(copies);
  for (const page of pages) encoder.addPage(page);
  return encoder.finish();
}

test('a rendered shipping label prints on the EPL2 emulator dot for dot, two copies, and its Code 128 and QR code read back', async () => {
  const [page] = await renderPdfPages(await shippingLabelPdf());
  assert.deepEqual([page.width, page.height], [812, 1218]);
  const job = encode([page], 2);
  assert.equal(EPL2.countFormats!(job), 1);
  await transport.send(job);
  await printer.waitForLabels(1, 10_000);

  const [label] = printer.printed;
  assert.deepEqual([label.widthDots, label.lengthDots, label.gapDots], [812, 1218, 24]);
  assert.deepEqual(label.graphics, ['0,0,102,1218']);
  assert.deepEqual([label.sets, label.copies], [1, 2]);
  assert.equal(printer.labelsPrinted, 2);
  assert.ok(countBlack(label.picture) > 10_000, 'the label has ink on it');
  assert.deepEqual(label.picture.data, page.data, 'the printed picture is the rendered page, dot for dot');

  const texts = (await readLabelBarcodes(label.picture, label.picture.width)).map((r) => `${r.format}:${r.text}`);
  assert.ok(texts.includes('Code128:1Z999AA10123456784'), `Code 128 not read, found ${texts.join(', ')}`);
  assert.ok(texts.includes('QRCode:https://example.com/t/1Z999AA10123456784'), `QR code not read, found ${texts.join(', ')}`);
});

test('random pages of any width (padding bits included), several in one job, come back dot for dot as one label each', async () => {
  // bytes with line feeds and commas among them: GW data must never be read as commands
  const pages = patternedPages();
  const before = printer.printed.length;
  const job = encode(pages, 1);
  assert.equal(EPL2.countFormats!(job), pages.length);
  await transport.send(job);
  await printer.waitForLabels(before + pages.length, 10_000);
  pages.forEach((page, n) => {
    const label = printer.printed[before + n];
    assert.deepEqual([label.widthDots, label.lengthDots], [page.width, page.height], `page ${n} size`);
    assert.deepEqual(label.picture.data, page.data, `page ${n} dots`);
  });
});

test('paper out: the printer answers 07, holds the label instead of printing it, and prints it once labels are loaded', async () => {
  const page: MonoBitmap = { width: 16, height: 2, bytesPerRow: 2, data: Uint8Array.of(0xff, 0x00, 0x00, 0xff) };
  const printedBefore = printer.printed.length;
  printer.state.paperOut = true;
  try {
    assert.equal((await EPL2.device!.preflight!(transport, 5000, false)).kind, 'not-ready');
    await transport.send(encode([page], 1));
    await printer.waitForHeld(1, 10_000);
    assert.equal(printer.printed.length, printedBefore, 'nothing printed while out of paper');
  } finally {
    printer.state.paperOut = false;
  }
  printer.drain();
  assert.equal(printer.printed.length, printedBefore + 1);
  assert.deepEqual(printer.printed.at(-1)!.picture.data, page.data);
});

test('a printer that drops the connection mid-job fails the send and prints nothing of it', async () => {
  const [page] = await renderPdfPages(await shippingLabelPdf());
  const printedBefore = printer.printed.length;
  const closedBefore = printer.connections.length;
  printer.resetAfterBytes = 20_000;
  try {
    await assert.rejects(transport.send(encode([page], 1)));
    await printer.waitForConnections(closedBefore + 1, 10_000);
  } finally {
    printer.resetAfterBytes = 0;
  }
  assert.equal(printer.resets, 1);
  assert.equal(printer.printed.length, printedBefore);
  assert.equal(printer.held.length, 0);
});
