// Printer-class requests need the interface, as usbfs rules: detach usblp, claim, release; and one claim shared by a job and a probe.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsbDiscovery } from '../../src/kinds/usb/usb-discovery';
import { silentLogger } from '../../src/log';
import { UsbTransport, type UsbLocator } from '../../src/kinds/usb/usb-transport';
import { getDeviceId, getPortStatus } from '../../src/usb/printer-class';
import { usbPortStatus } from '../../src/kinds/usb/usb-status';
import { deviceIdReply, FakeUsbBus, type FakeDeviceSpec, type FakeUsbDevice } from '../fixtures/fake-usb';
import { InterfaceClaims } from '../../src/usb/usb-claim';
import { until } from '../helpers/until';

const ZEBRA: FakeDeviceSpec = { vendorId: 0x0a5f, productId: 0x0166, serialNumber: 'ZB1', kernelDriverBound: true, deviceIdReply: deviceIdReply('MFG:Zebra;CMD:ZPL;MDL:ZD421;') };
const EPSON: FakeDeviceSpec = { vendorId: 0x04b8, productId: 0x0e28, serialNumber: 'EP1', ports: [2], kernelDriverBound: true, deviceIdReply: deviceIdReply('MFG:EPSON;CMD:ESCPOS;MDL:TM-T20III;') };

function locatorOf(device: FakeUsbDevice): UsbLocator {
  const { busNumber, portNumbers, vendorId, productId } = device.info;
  return { bus: busNumber, ports: portNumbers.join('.'), vendorId, productId, interface: 0 };
}


test('the fake bus follows usbfs: an interface request on a usblp-bound interface is busy, GET_DEVICE_ID on a printer-class one is let through', async () => {
  const bus = new FakeUsbBus();
  const epson = bus.add(EPSON);
  const receipt = bus.add({ ...EPSON, serialNumber: 'EP2', ports: [3], interfaceClass: 0xff });
  const handle = await bus.open(epson.info);
  await assert.rejects(getPortStatus(handle, 0, 100), { name: 'LIBUSB_ERROR_BUSY' });
  assert.match((await getDeviceId(handle, 0, 0, 0, 100)).toString('latin1'), /TM-T20III/);
  handle.close();
  const vendor = await bus.open(receipt.info);
  await assert.rejects(getDeviceId(vendor, 0, 0, 0, 100), { name: 'LIBUSB_ERROR_BUSY' }, 'the exemption is for class 7 only');
  vendor.close();

  const plain = bus.add({ ...EPSON, serialNumber: 'EP3', ports: [4], kernelDriverBound: false });
  const first = await bus.open(plain.info);
  const second = await bus.open(plain.info);
  assert.equal(await getPortStatus(first, 0, 100), 0x18, 'a free interface is claimed implicitly');
  await assert.rejects(second.claim(0), { name: 'LIBUSB_ERROR_BUSY' }, 'until the handle that touched it closes');
  first.close();
  assert.equal(await second.claim(0), false);
  second.close();
});

test('port status of a printer bound to usblp detaches it once and keeps the claim for later probes; closing gives usblp back, except on a Zebra', async () => {
  const bus = new FakeUsbBus();
  const claims = new InterfaceClaims(bus);
  const epson = bus.add(EPSON);
  const zebra = bus.add(ZEBRA);
  epson.portStatus = 0x38;
  assert.deepEqual(await usbPortStatus(claims, locatorOf(epson), 100), { status: 'error', statusReasons: ['media-empty-error'] });
  assert.deepEqual(await usbPortStatus(claims, locatorOf(epson), 100), { status: 'error', statusReasons: ['media-empty-error'] });
  assert.deepEqual([epson.claims, epson.kernelDetaches, epson.kernelReattaches, epson.kernelDriverBound], [1, 1, 0, false], 'no churn: one detach for two probes');
  assert.deepEqual(await usbPortStatus(claims, locatorOf(zebra), 100), { status: 'online', statusReasons: [] });
  await claims.closeAll();
  assert.deepEqual([epson.kernelDetaches, epson.kernelReattaches, epson.kernelDriverBound], [1, 1, true]);
  assert.deepEqual([zebra.kernelDetaches, zebra.kernelReattaches, zebra.kernelDriverBound], [1, 0, false]);
  assert.equal(claims.size, 0);
});

test('discovery reads the 1284 ID of a vendor-class receipt printer whose interface a kernel driver holds', async () => {
  const bus = new FakeUsbBus();
  const claims = new InterfaceClaims(bus);
  // the TM-T88 (04b8:0202) is the printer CUPS's quirks name `vendor-class`
  const tm = bus.add({ vendorId: 0x04b8, productId: 0x0202, serialNumber: 'TM1', interfaceClass: 0xff, kernelDriverBound: true, deviceIdReply: deviceIdReply('MFG:EPSON;CMD:ESC/POS;MDL:TM-T88V;') });
  const [printer] = await new UsbDiscovery({ claims, timeoutMs: 100, logger: silentLogger }).scan();
  assert.equal(printer!.model, 'EPSON TM-T88V');
  assert.deepEqual([tm.kernelDetaches, tm.kernelReattaches, tm.kernelDriverBound], [1, 0, false]);
  await claims.closeAll();
  assert.deepEqual([tm.kernelDetaches, tm.kernelReattaches, tm.kernelDriverBound], [1, 1, true]);
});

test('a status probe during a job reads through the job’s claim: the status is live and the job arrives whole', async () => {
  const bus = new FakeUsbBus();
  const claims = new InterfaceClaims(bus);
  const epson = bus.add(EPSON);
  epson.outDelayMs = 40;
  const body = Buffer.alloc(5 * 1024, 0x41);
  const job = new UsbTransport({ claims, locator: locatorOf(epson), writeTimeoutMs: 1000, chunkBytes: 1024 }).send(body);
  await until('the job is sending', () => epson.transfers.length > 0);
  epson.portStatus = 0x38;
  assert.deepEqual(await usbPortStatus(claims, locatorOf(epson), 100), { status: 'error', statusReasons: ['media-empty-error'] });
  assert.deepEqual(await job, { bytes: body.length });
  assert.deepEqual(epson.lastJob(), body);
  assert.deepEqual([epson.claims, epson.kernelDetaches, epson.kernelReattaches, epson.kernelDriverBound], [1, 1, 0, false], 'one claim, kept');
});

test('a job that starts while a status probe holds the interface joins its claim instead of failing busy', async () => {
  const bus = new FakeUsbBus();
  const claims = new InterfaceClaims(bus);
  const epson = bus.add({ ...EPSON, kernelDriverBound: false });
  epson.controlDelayMs = 100;
  const probe = usbPortStatus(claims, locatorOf(epson), 500);
  await until('the probe holds the interface', () => epson.claims === 1);
  const label = Buffer.from('^XA^FDjoined^FS^XZ');
  assert.deepEqual(await new UsbTransport({ claims, locator: locatorOf(epson), writeTimeoutMs: 1000 }).send(label), { bytes: label.length });
  assert.deepEqual(await probe, { status: 'online', statusReasons: [] });
  assert.deepEqual(epson.lastJob(), label);
});

test('a printer that leaves the bus has its held claim closed at once: no handle is left open', async () => {
  const bus = new FakeUsbBus();
  const claims = new InterfaceClaims(bus);
  const epson = bus.add({ ...EPSON, kernelDriverBound: false });
  await usbPortStatus(claims, locatorOf(epson), 100);
  assert.equal(claims.size, 1);
  bus.detach(epson);
  await until('the claim is given up', () => claims.size === 0);
  await claims.closeAll();
});
