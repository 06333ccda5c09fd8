// PDFs to USB label printers: the resolution stated in the IEEE 1284 model string, unless PATCH sets another.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deviceIdReply, FakeUsbBus, type FakeUsbDevice } from '../fixtures/fake-usb';
import { boxedPagePdf } from '../fixtures/pdf/hostile-pdf';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { decodeLabels } from '../render/zpl-label-decode';

let bus: FakeUsbBus;
let d: InProcessDaemon;
let zebra300: FakeUsbDevice;
let plain: FakeUsbDevice;

before(async () => {
  bus = new FakeUsbBus();
  zebra300 = bus.add({ vendorId: 0x0a5f, productId: 0x0166, serialNumber: 'D4J300001', ports: [1], deviceIdReply: deviceIdReply('MANUFACTURER:Zebra Technologies;COMMAND SET:ZPL;MODEL:ZTC ZD421-300dpi ZPL;CLASS:PRINTER;') });
  plain = bus.add({ vendorId: 0x1234, productId: 0x5678, serialNumber: 'LJ0001', ports: [2], deviceIdReply: deviceIdReply('MFG:Acme;MDL:LabelJet;CMD:ZPL;') });
  d = await startInProcess({ usb: () => bus });
  await d.api('GET', '/discover');
});
after(async () => {
  await d.stop();
});

/** Prints a 4x6 in PDF to `path` and returns the label's ^PW and ^LL. */
async function printedSize(path: string, device: FakeUsbDevice): Promise<[number, number]> {
  const res = await d.api('POST', `/print/${path}`, { body: { content: Buffer.from(boxedPagePdf(288, 432)).toString('base64'), contentType: 'pdf_base64' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const [label] = decodeLabels(device.lastJob()!.toString('latin1'));
  return [label.pw, label.ll];
}

test('a USB printer whose model string states 300dpi shows dpi 300 and gets 300 dpi labels', async () => {
  const printer = (await d.api('GET', '/printers/usb_sn_D4J300001')).body.result.content;
  assert.equal(printer.model, 'Zebra Technologies ZTC ZD421-300dpi ZPL');
  assert.equal(printer.dpi, 300);
  assert.deepEqual(await printedSize('usb_sn_D4J300001', zebra300), [1200, 1800]);
});

test('a USB printer whose model states no resolution has no dpi and renders at 203', async () => {
  const printer = (await d.api('GET', '/printers/usb_sn_LJ0001')).body.result.content;
  assert.equal(printer.dpi, undefined);
  assert.deepEqual(await printedSize('usb_sn_LJ0001', plain), [812, 1218]);
});

test('PATCH dpi overrides the model string, survives a model rename, and null goes back to the model', async () => {
  const patched = await d.api('PATCH', '/printers/usb_sn_D4J300001', { body: { dpi: 203, model: 'Dock printer' } });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.result.content.dpi, 203);
  assert.deepEqual(await printedSize('usb_sn_D4J300001', zebra300), [812, 1218]);
  const cleared = await d.api('PATCH', '/printers/usb_sn_D4J300001', { body: { dpi: null } });
  assert.equal(cleared.body.result.content.dpi, 300, 'the 1284 model string still says 300dpi');
  assert.equal(cleared.body.result.content.model, 'Dock printer');
  assert.deepEqual(await printedSize('usb_sn_D4J300001', zebra300), [1200, 1800]);
});
