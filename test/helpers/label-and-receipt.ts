// The in-process daemon with two printers: an Epson receipt printer on a fake USB bus and the ZPL emulator on TCP.
import assert from 'node:assert/strict';
import { deviceIdReply, FakeUsbBus, type FakeUsbDevice } from '../fixtures/fake-usb';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startInProcess, type InProcessDaemon } from './in-process-daemon';

/** The receipt printer's path (its USB serial number). */
export const RECEIPT = 'usb_sn_X5E9000123';

/** The daemon, both printers and the label printer's path. */
export interface LabelAndReceipt {
  d: InProcessDaemon;
  epson: FakeUsbDevice;
  zebra: ZplPrinterEmulator;
  label: string;
  stop: () => Promise<void>;
}

/** Starts the daemon with an Epson TM-T88V on USB and adds the ZPL emulator (found by `~HS`); discovery has run once. */
export async function labelAndReceipt(): Promise<LabelAndReceipt> {
  const bus = new FakeUsbBus();
  const epson = bus.add({ vendorId: 0x04b8, productId: 0x0202, serialNumber: 'X5E9000123', ports: [2], interfaceClass: 0xff, manufacturer: 'EPSON', product: 'TM-T88V', deviceIdReply: deviceIdReply('MFG:EPSON;CMD:ESCPOS;MDL:TM-T88V;CLS:PRINTER;', true) });
  const d = await startInProcess({ usb: () => bus });
  const zebra = new ZplPrinterEmulator();
  const port = await zebra.start();
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' } } });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  assert.equal((await d.api('GET', '/discover')).status, 200);
  const stop = async () => {
    await d.stop();
    await zebra.stop();
  };
  return { d, epson, zebra, label: added.body.result.content.path, stop };
}
