// A TSPL label printer gadget (1284 id CMD:TSPL2) on the guest's real USB stack: found as content tspl, a PDF label
// arrives after one `<ESC>!?` as TSPL whose BITMAP carries readable codes, TSPL passes byte for byte, and paper out
// or an open head answered to `<ESC>!?` on bulk IN refuses the job with the pre-flight 503.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { TcpTransport } from '../../src/transports/tcp-transport';
import { libusbBackend } from '../../src/usb/libusb-backend';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { TsplPrinterEmulator } from '../fixtures/tspl-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until, valueWithin } from '../helpers/until';
import { readLabelBarcodes } from '../render/barcode-reader';
import { GadgetPrinter, tsplSpec } from './gadget-client';
import { listedPrinter } from './listed-printer';

const PATH = 'usb_sn_TSC2TSPL1';
const STATUS_QUERY = '\x1b!?';
const TSPL_JOB = 'SIZE 2,1\r\nGAP 2 mm,0 mm\r\nCLS\r\nTEXT 10,10,"3",0,1,1,"gadget"\r\nPRINT 1,1\r\n';
let gadget: GadgetPrinter;
let d: InProcessDaemon;

before(async () => {
  gadget = await GadgetPrinter.start(tsplSpec({ serialNumber: 'TSC2TSPL1' }));
  d = await startInProcess({ usb: libusbBackend });
});
after(async () => {
  await d?.stop();
  await gadget?.stop();
});

/** What the gadget read, without the status queries. */
async function jobBytes(): Promise<Buffer> {
  return Buffer.from((await gadget.received()).toString('latin1').split(STATUS_QUERY).join(''), 'latin1');
}

test('the gadget is listed as a tspl printer', async () => {
  const printer = await valueWithin(`${PATH} is listed`, 30_000, () => listedPrinter(d, PATH));
  assert.equal(printer.content, 'tspl');
});

test('a PDF label arrives as one TSPL BITMAP whose Code 128 and QR code read back; TSPL passes byte for byte', async () => {
  await valueWithin(`${PATH} is listed`, 30_000, () => listedPrinter(d, PATH));
  await gadget.clear();
  const body = { content: Buffer.from(await shippingLabelPdf()).toString('base64'), contentType: 'pdf_base64' };
  const res = await d.api('POST', `/print/${PATH}`, { body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await until('the gadget read the whole label', async () => /PRINT 1,1\r\n$/.test((await jobBytes()).toString('latin1')), 30_000);
  const received = (await gadget.received()).toString('latin1');
  assert.ok(received.startsWith(`${STATUS_QUERY}SIZE 4,6\r\n`), 'the pre-flight query, then the label');
  const emulator = new TsplPrinterEmulator();
  const port = await emulator.start();
  try {
    await new TcpTransport({ host: '127.0.0.1', port, connectTimeoutMs: 2000, idleTimeoutMs: 5000, closeWaitMs: 5000 }).send(await jobBytes());
    await emulator.waitForLabels(1, 20_000);
    const [label] = emulator.printed;
    assert.deepEqual(label.bitmaps, ['0,0,102,1218,0']);
    const codes = (await readLabelBarcodes(label.picture, label.picture.width)).map((r) => `${r.format}:${r.text}`);
    assert.ok(codes.includes('Code128:1Z999AA10123456784'), JSON.stringify(codes));
    assert.ok(codes.includes('QRCode:https://example.com/t/1Z999AA10123456784'), JSON.stringify(codes));
  } finally {
    await emulator.stop();
  }

  await gadget.clear();
  const raw = await d.api('POST', `/print/${PATH}`, { body: { content: Buffer.from(TSPL_JOB, 'latin1').toString('base64'), contentType: 'raw_base64' } });
  assert.equal(raw.status, 200, JSON.stringify(raw.body));
  await until('the gadget read the TSPL job', async () => (await jobBytes()).length >= TSPL_JOB.length, 30_000);
  assert.equal((await jobBytes()).toString('latin1'), TSPL_JOB);
});

test('paper out and head open, answered to <ESC>!?, give the pre-flight 503 and nothing is printed', async () => {
  await valueWithin(`${PATH} is listed`, 30_000, () => listedPrinter(d, PATH));
  for (const [state, flags, message] of [
    [{ paperOut: true }, { paperOut: true }, 'Printer is out of paper (load labels and close the head)'],
    [{ headOpen: true }, { headOpen: true }, 'Print head is open (close the print head)'],
  ] as const) {
    await gadget.set({ paperOut: false, headOpen: false, ...state });
    await gadget.clear();
    const res = await d.api('POST', `/print/${PATH}`, { body: { content: Buffer.from(TSPL_JOB).toString('base64'), contentType: 'raw_base64' } });
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.deepEqual(res.body.result.content, { ready: false, paperOut: false, paused: false, headOpen: false, ribbonOut: false, ...flags, errors: [message] });
    assert.equal((await jobBytes()).length, 0, 'only the status query was sent');
  }
  await gadget.set({ paperOut: false, headOpen: false });
});
