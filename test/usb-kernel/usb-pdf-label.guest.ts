// A PDF label to the Zebra gadget: rendered in the guest's worker pool, it reaches the printer as the same ZPL a
// network label printer of the same resolution gets for it, byte for byte, with its barcode readable.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { libusbBackend } from '../../src/usb/libusb-backend';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until, valueWithin } from '../helpers/until';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { readLabelBarcodes } from '../render/barcode-reader';
import { decodeLabels } from '../render/zpl-label-decode';
import { GadgetPrinter, zebraSpec } from './gadget-client';
import { listedPrinter } from './listed-printer';

const PATH = 'usb_sn_D4J2PDF01';
let gadget: GadgetPrinter;
let d: InProcessDaemon;

before(async () => {
  gadget = await GadgetPrinter.start(zebraSpec({ serialNumber: 'D4J2PDF01' }));
  d = await startInProcess({ usb: libusbBackend });
});
after(async () => {
  await d?.stop();
  await gadget?.stop();
});

const listed = (path: string): Promise<any> => listedPrinter(d, path);

test('a PDF label arrives as the same ZPL a network label printer gets for it, byte for byte, its barcode readable', async () => {
  const usb = await valueWithin(`${PATH} is listed`, 30_000, () => listed(PATH));
  // the reference: the same PDF printed to an emulated network Zebra of the same resolution, in the same daemon
  const emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  try {
    const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl', dpi: usb.dpi } });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const body = { content: Buffer.from(await shippingLabelPdf()).toString('base64'), contentType: 'pdf_base64' };
    const reference = await d.api('POST', `/print/${added.body.result.content.path}`, { body });
    assert.equal(reference.status, 200, JSON.stringify(reference.body));
    await until('the network printer got the label', () => emulator.jobs().length > 0, 20_000);
    const expected = emulator.jobs()[emulator.jobs().length - 1].toString('latin1');

    await gadget.clear();
    const res = await d.api('POST', `/print/${PATH}`, { body });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await until('the gadget read the whole label', async () => (await gadget.received()).length >= expected.length + '~HS\r\n'.length, 30_000);
    const zpl = (await gadget.received()).toString('latin1');
    assert.equal(zpl, `~HS\r\n${expected}`, 'after the pre-flight, the bytes the network printer got');
    const [label] = decodeLabels(expected);
    const codes = (await readLabelBarcodes(label.bitmap, label.pw)).filter((r) => r.isValid).map((r) => `${r.format}:${r.text}`);
    assert.ok(codes.includes('Code128:1Z999AA10123456784'), JSON.stringify(codes));
  } finally {
    await emulator.stop();
  }
});
