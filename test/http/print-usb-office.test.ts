// USB devices that are not label or receipt printers, through the HTTP API on a fake bus: a laser that names PDF takes
// a PDF as it is; a PCL-only laser and a vendor-class Epson scanner are not offered.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deviceIdReply, FakeUsbBus, type FakeUsbDevice } from '../fixtures/fake-usb';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';

let d: InProcessDaemon;
let laser: FakeUsbDevice;

before(async () => {
  const bus = new FakeUsbBus();
  laser = bus.add({ vendorId: 0x03f0, productId: 0x7c2a, serialNumber: 'VNB3K12345', ports: [1], deviceIdReply: deviceIdReply('MFG:HP;MDL:LaserJet Pro M404dn;CMD:PJL,PCL,PCLXL,POSTSCRIPT,PDF,URF;CLS:PRINTER;') });
  bus.add({ vendorId: 0x04f9, productId: 0x0042, serialNumber: 'E78123', ports: [2], deviceIdReply: deviceIdReply('MFG:Brother;MDL:HL-L2350DW;CMD:PJL,PCL,PCLXL;CLS:PRINTER;') });
  bus.add({ vendorId: 0x04b8, productId: 0x0142, serialNumber: 'SCAN1', ports: [3], interfaceClass: 0xff, manufacturer: 'EPSON', product: 'Perfection V39' });
  d = await startInProcess({ usb: () => bus });
});
after(async () => {
  await d.stop();
});

test('only the laser that names PDF is listed, as a pdf printer; the PCL-only laser and the scanner are not', async () => {
  await d.api('GET', '/discover');
  const printers = (await d.api('GET', '/printers')).body.result.content.filter((p: any) => p.connection.type === 'usb');
  assert.deepEqual(
    printers.map((p: any) => [p.path, p.content, p.model]),
    [['usb_sn_VNB3K12345', 'pdf', 'HP LaserJet Pro M404dn']],
  );
});

test('a PDF sent to the laser arrives as it is, not rendered to ESC/POS', async () => {
  const pdf = Buffer.from(await shippingLabelPdf());
  const res = await d.api('POST', '/print/usb_sn_VNB3K12345', { body: { contentType: 'pdf_base64', content: pdf.toString('base64') } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(laser.lastJob(), pdf);
});
