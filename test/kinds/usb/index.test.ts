// The USB kind's lifecycle: it opens the bus when it starts (a bus that cannot open is a warning and no USB printers),
// and gives the claimed interfaces back to their kernel driver when it stops.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { usbKind } from '../../../src/kinds/usb';
import { ESCPOS } from '../../../src/languages/escpos';
import { silentLogger } from '../../../src/log';
import type { PrinterRecord } from '../../../src/schemas/printer';
import { FakeUsbBus } from '../../fixtures/fake-usb';

const timeouts = { connectMs: 1000, idleMs: 1000, queryMs: 300 };

test('a bus that cannot open: one warning, no discovery, and jobs to USB printers fail saying USB is unavailable', async () => {
  const warnings: string[] = [];
  const session = usbKind.start({ timeouts, mdns: false, printerAt: () => null, logger: silentLogger, hardware: { usb: () => { throw new Error('libusb not found'); } }, warn: (line) => warnings.push(line) });
  assert.deepEqual(warnings, ['USB unavailable, USB printers are off: libusb not found']);
  assert.deepEqual(session.discovery, []);
  const printer = { id: 'AAAAAAAA', path: 'usb_sn_X', content: 'raw', connection: { type: 'usb' }, tags: [], discovered: true } as PrinterRecord;
  const doc = { bytes: Buffer.from('x'), repeat: 1, mimeType: 'application/octet-stream', title: 't', userName: 'u', options: {} };
  await assert.rejects(session.openDriver(printer, ESCPOS).deliver(doc, new AbortController().signal), /USB is unavailable on this device/);
  await session.stop();
});

test('the bus opens once when the kind starts; a printer used since is given back to its kernel driver when the kind stops', async () => {
  const bus = new FakeUsbBus();
  const device = bus.add({ vendorId: 0x04b8, productId: 0x0202, serialNumber: 'R1', kernelDriverBound: true });
  let opened = 0;
  const session = usbKind.start({ timeouts, mdns: false, printerAt: () => null, logger: silentLogger, hardware: { usb: () => (opened += 1, bus) }, warn: () => undefined });
  assert.equal(opened, 1);
  assert.equal(session.discovery.length, 1);
  const { busNumber, portNumbers } = device.info;
  const printer = { id: 'AAAAAAAA', path: 'usb_sn_R1', content: 'raw', connection: { type: 'usb' }, tags: [], discovered: true, locator: { bus: busNumber, ports: portNumbers.join('.'), vendorId: 0x04b8, productId: 0x0202, interface: 0 } } as PrinterRecord;
  await session.openDriver(printer, ESCPOS).deliver({ bytes: Buffer.from('receipt\n'), repeat: 1, mimeType: 'application/octet-stream', title: 't', userName: 'u', options: {} }, new AbortController().signal);
  assert.equal(device.kernelDriverBound, false, 'claimed for the job');
  await session.stop();
  assert.equal(device.kernelDriverBound, true, 'usblp bound again at stop');
});
