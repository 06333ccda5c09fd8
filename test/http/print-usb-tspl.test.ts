// TSPL printers on USB through the HTTP API, on the fake USB bus: found by CMD:TSPL, PDF labels rendered to one BITMAP,
// TSPL passed through, and `<ESC>!?` on bulk IN for pre-flight.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TcpTransport } from '../../src/transports/tcp-transport';
import { deviceIdReply, FakeUsbBus, type FakeUsbDevice } from '../fixtures/fake-usb';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { TsplPrinterEmulator } from '../fixtures/tspl-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { readLabelBarcodes } from '../render/barcode-reader';

const TSC = 'usb_sn_TSC0001';
const TSPL_JOB = 'SIZE 2,1\r\nGAP 2 mm,0 mm\r\nCLS\r\nTEXT 10,10,"3",0,1,1,"usb"\r\nPRINT 1,1\r\n';

const STATUS_QUERY = '\x1b!?';

/** What bulk OUT carried from transfer `from` on, without the `<ESC>!?` status queries sent before and after the job. */
const sentSince = (device: FakeUsbDevice, from: number) => Buffer.from(Buffer.concat(device.transfers.slice(from)).toString('latin1').split(STATUS_QUERY).join(''), 'latin1');

let bus: FakeUsbBus;
let d: InProcessDaemon;
let tsc: FakeUsbDevice;
const emulator = new TsplPrinterEmulator();
let emulatorPort = 0;

before(async () => {
  bus = new FakeUsbBus();
  tsc = bus.add({ vendorId: 0x1203, productId: 0x0230, serialNumber: 'TSC0001', ports: [1], hasInEndpoint: true, deviceIdReply: deviceIdReply('MFG:TSC;MDL:TE200;CMD:TSPL2;CLS:PRINTER;') });
  bus.add({ vendorId: 0x1203, productId: 0x0231, serialNumber: 'BOTH0001', ports: [2], deviceIdReply: deviceIdReply('MFG:Acme;MDL:Dual;CMD:TSPL,ZPL;CLS:PRINTER;') });
  d = await startInProcess({ usb: () => bus });
  emulatorPort = await emulator.start();
});
after(async () => {
  await d.stop();
  await emulator.stop();
});

test('discovery reads CMD:TSPL2 as content tspl; a printer listing both TSPL and ZPL is ZPL', async () => {
  await d.api('GET', '/discover');
  const printers = new Map<string, any>((await d.api('GET', '/printers')).body.result.content.map((p: any) => [p.path, p]));
  assert.equal(printers.get(TSC).content, 'tspl');
  assert.equal(printers.get(TSC).model, 'TSC TE200');
  assert.equal(printers.get('usb_sn_BOTH0001').content, 'zpl');
});

test('a PDF label arrives as TSPL whose one BITMAP carries the Code 128 and QR code; TSPL passes byte for byte', async () => {
  const content = Buffer.from(await shippingLabelPdf()).toString('base64');
  const first = tsc.transfers.length;
  const res = await d.api('POST', `/print/${TSC}`, { body: { content, contentType: 'pdf_base64' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const sent = sentSince(tsc, first);
  assert.match(sent.toString('latin1'), /^SIZE 4,6\r\n/);
  // what the USB printer got, printed by the emulator: the same codes read back
  await new TcpTransport({ host: '127.0.0.1', port: emulatorPort, connectTimeoutMs: 2000, idleTimeoutMs: 2000, closeWaitMs: 2000 }).send(sent);
  await emulator.waitForLabels(1, 10_000);
  const [label] = emulator.printed;
  assert.deepEqual(label.bitmaps, ['0,0,102,1218,0']);
  const texts = (await readLabelBarcodes(label.picture, label.picture.width)).map((r) => `${r.format}:${r.text}`);
  assert.ok(texts.includes('Code128:1Z999AA10123456784'), `Code 128 not read, found ${texts.join(', ')}`);
  assert.ok(texts.includes('QRCode:https://example.com/t/1Z999AA10123456784'), `QR code not read, found ${texts.join(', ')}`);

  const second = tsc.transfers.length;
  const raw = await d.api('POST', `/print/${TSC}`, { body: { content: Buffer.from(TSPL_JOB, 'latin1').toString('base64'), contentType: 'raw_base64' } });
  assert.equal(raw.status, 200, JSON.stringify(raw.body));
  assert.deepEqual(sentSince(tsc, second), Buffer.from(TSPL_JOB, 'latin1'));
});

test('paper out and head open, answered to <ESC>!? on bulk IN, refuse the job with the pre-flight 503', async () => {
  for (const [byte, flags, message] of [
    [0x04, { paperOut: true }, 'Printer is out of paper (load labels and close the head)'],
    [0x01, { headOpen: true }, 'Print head is open (close the print head)'],
  ] as const) {
    const from = tsc.transfers.length;
    tsc.inQueue.push(Buffer.of(byte));
    const res = await d.api('POST', `/print/${TSC}`, { body: { content: Buffer.from(TSPL_JOB).toString('base64'), contentType: 'raw_base64' } });
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.deepEqual(res.body.result.content, { ready: false, paperOut: false, paused: false, headOpen: false, ribbonOut: false, ...flags, errors: [message] });
    assert.equal(sentSince(tsc, from).length, 0, 'nothing but the status query was sent');
  }
});
