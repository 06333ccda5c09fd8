// The guest's USB stack itself: a printer gadget is bound by usblp, takes bytes through /dev/usb/lp0, and libusb sees it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { GadgetPrinter, zebraSpec } from './gadget-client';
import { until } from '../helpers/until';

let gadget: GadgetPrinter;

before(async () => {
  gadget = await GadgetPrinter.start(zebraSpec());
});
after(async () => {
  await gadget.stop();
});

test('usblp binds the gadget, and bytes written to /dev/usb/lp0 arrive at the gadget', async () => {
  await until('/dev/usb/lp0 appears', () => existsSync('/dev/usb/lp0'), 20_000);
  writeFileSync('/dev/usb/lp0', '^XA^FDkernel^FS^XZ');
  await until('the gadget read the bytes', async () => (await gadget.received()).toString() === '^XA^FDkernel^FS^XZ', 20_000);
});

test('libusb lists the gadget with its descriptors', () => {
  const { getDeviceList } = require('usb') as typeof import('usb');
  const found = getDeviceList().find((d) => d.deviceDescriptor.idVendor === 0x0a5f && d.deviceDescriptor.idProduct === 0x0166);
  assert.ok(found, 'the gadget is on the bus');
  const alts = found.configDescriptor!.interfaces[0]!;
  assert.deepEqual([alts[0]!.bInterfaceClass, alts[0]!.bInterfaceSubClass, alts[0]!.bInterfaceProtocol], [7, 1, 2]);
});

test('every alternate setting is read, and the gadget’s one (class 7/1, protocol 2) is the printer interface chosen', async () => {
  const { libusbBackend } = await import('../../src/usb/libusb-backend');
  const { printerInterface } = await import('../../src/usb/interface-select');
  const device = (await libusbBackend().list()).find((d) => d.vendorId === 0x0a5f && d.productId === 0x0166);
  assert.ok(device, 'the gadget is on the bus');
  assert.deepEqual(device.interfaces.map((i) => [i.number, i.alternate, i.interfaceClass, i.interfaceSubclass, i.interfaceProtocol]), [[0, 0, 7, 1, 2]]);
  assert.deepEqual([printerInterface(device)?.number, printerInterface(device)?.alternate], [0, 0]);
});
