// Which devices are printers and through which alternate setting: every alternate setting of every interface is read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interfaceFor, printerInterface } from '../../src/usb/interface-select';
import type { UsbInterfaceInfo } from '../../src/usb/usb-backend';
import { UsbDiscovery } from '../../src/kinds/usb/usb-discovery';
import { InterfaceClaims } from '../../src/usb/usb-claim';
import { UsbTransport } from '../../src/kinds/usb/usb-transport';
import { silentLogger } from '../../src/log';
import { deviceIdReply, FakeUsbBus, type FakeDeviceSpec } from '../fixtures/fake-usb';

function alt(number: number, alternate: number, cls: number, sub: number, protocol: number, withIn = true): UsbInterfaceInfo {
  return {
    number,
    alternate,
    interfaceClass: cls,
    interfaceSubclass: sub,
    interfaceProtocol: protocol,
    endpoints: [
      { address: 0x01 + number * 2, direction: 'out', transferType: 'bulk', maxPacketSize: 512 },
      ...(withIn ? [{ address: 0x82 + number * 2, direction: 'in' as const, transferType: 'bulk' as const, maxPacketSize: 512 }] : []),
    ],
  };
}

const LASER = 'MFG:HP;CMD:PJL,PCL,PDF,URF;MDL:LaserJet M404;';

test('among all alternate settings, bidirectional (protocol 2) is chosen over unidirectional (1); 1284.4 (3) and IPP-USB (4) never', () => {
  const device = new FakeUsbBus().add({
    vendorId: 0x03f0,
    productId: 0x7c2a,
    interfaces: [alt(0, 0, 7, 1, 1, false), alt(0, 1, 7, 1, 2), alt(0, 2, 7, 1, 3), alt(1, 0, 7, 1, 4), alt(2, 0, 0xff, 0xff, 0xff)],
  }).info;
  assert.deepEqual([printerInterface(device)?.number, printerInterface(device)?.alternate], [0, 1]);
  assert.equal(interfaceFor(device, 0)?.alternate, 1, 'a job on interface 0 uses the same alternate setting');
  assert.equal(interfaceFor(device, 2)?.alternate, 0, 'an interface with no printer setting gives its first');
  assert.equal(interfaceFor(device, 9), null);
});

test('unidirectional when that is all there is; a device whose only printer settings are 1284.4 or IPP-USB is no printer', () => {
  const bus = new FakeUsbBus();
  const uni = bus.add({ vendorId: 0x04f9, productId: 0x0042, interfaces: [alt(0, 0, 7, 1, 1, false)] }).info;
  assert.equal(printerInterface(uni)?.interfaceProtocol, 1);
  const ippOnly = bus.add({ vendorId: 0x03f0, productId: 0x1234, interfaces: [alt(0, 0, 7, 1, 4), alt(1, 0, 7, 1, 3)] }).info;
  assert.equal(printerInterface(ippOnly), null);
  const wrongSubclass = bus.add({ vendorId: 0x03f0, productId: 0x1235, interfaces: [alt(0, 0, 7, 0, 2)] }).info;
  assert.equal(printerInterface(wrongSubclass), null);
});

test('a vendor-specific interface is a printer only where CUPS’s quirks say vendor-class: an Epson scanner is not, the TM-T88 is', () => {
  const bus = new FakeUsbBus();
  const scanner = bus.add({ vendorId: 0x04b8, productId: 0x0142, interfaceClass: 0xff }).info;
  assert.equal(printerInterface(scanner), null);
  const tm = bus.add({ vendorId: 0x04b8, productId: 0x0202, interfaceClass: 0xff }).info;
  assert.equal(printerInterface(tm)?.interfaceClass, 0xff);
  const star = bus.add({ vendorId: 0x0519, productId: 0x0003, interfaceClass: 0xff }).info;
  assert.equal(printerInterface(star), null, 'a vendor id alone no longer makes a printer');
});

test('a printer CUPS blacklists (Canon SELPHY) is not offered', () => {
  const selphy = new FakeUsbBus().add({ vendorId: 0x04a9, productId: 0x3214 }).info;
  assert.equal(printerInterface(selphy), null);
});

test('the chosen alternate setting is selected when the interface is claimed, and a job goes out on its endpoint', async () => {
  const bus = new FakeUsbBus();
  const printer = bus.add({
    vendorId: 0x0a5f,
    productId: 0x0166,
    serialNumber: 'ALT1',
    interfaces: [alt(0, 0, 7, 1, 1, false), alt(0, 1, 7, 1, 2)],
    deviceIdReply: deviceIdReply('MFG:Zebra;CMD:ZPL;MDL:ZD421;'),
  });
  const claims = new InterfaceClaims(bus);
  const [found] = await new UsbDiscovery({ claims, timeoutMs: 100, logger: silentLogger }).scan();
  assert.equal(found!.content, 'zpl');
  assert.equal(printer.alternate, 1, 'discovery claimed alternate setting 1');
  const locator = { bus: 1, ports: '1', vendorId: 0x0a5f, productId: 0x0166, interface: 0 };
  await new UsbTransport({ claims, locator, writeTimeoutMs: 1000 }).send(Buffer.from('^XA^XZ'));
  assert.equal(printer.alternate, 1);
  assert.equal(printer.lastJob()?.toString(), '^XA^XZ');
});

async function discovered(spec: FakeDeviceSpec) {
  const bus = new FakeUsbBus();
  bus.add(spec);
  return new UsbDiscovery({ claims: new InterfaceClaims(bus), timeoutMs: 100, logger: silentLogger }).scan();
}

test('discovery classifies by the 1284 command set: ZPL a label printer, ESC/POS a receipt printer, a PDF laser takes PDF, a PCL-only laser is not offered', async () => {
  const zpl = await discovered({ vendorId: 0x0a5f, productId: 0x0166, serialNumber: 'Z1', deviceIdReply: deviceIdReply('MFG:Zebra;CMD:ZPL;MDL:ZD421;') });
  assert.deepEqual(zpl.map((p) => p.content), ['zpl']);
  const receipt = await discovered({ vendorId: 0x04b8, productId: 0x0e28, serialNumber: 'E1', deviceIdReply: deviceIdReply('MFG:EPSON;CMD:ESC/POS;MDL:TM-T20III;') });
  assert.deepEqual(receipt.map((p) => p.content), ['raw']);
  const pdf = await discovered({ vendorId: 0x03f0, productId: 0x7c2a, serialNumber: 'H1', deviceIdReply: deviceIdReply(LASER) });
  assert.deepEqual(pdf.map((p) => [p.content, p.model]), [['pdf', 'HP LaserJet M404']]);
  const pcl = await discovered({ vendorId: 0x04f9, productId: 0x0042, serialNumber: 'B1', deviceIdReply: deviceIdReply('MFG:Brother;CMD:PJL,PCL,PCLXL;MDL:HL-L2350DW;') });
  assert.deepEqual(pcl, []);
  const silent = await discovered({ vendorId: 0x0fe6, productId: 0x811e, serialNumber: 'P1', deviceIdReply: null });
  assert.deepEqual(silent.map((p) => p.content), ['raw'], 'a printer that gives no 1284 id is taken as a receipt printer');
});
