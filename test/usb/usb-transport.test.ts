// The USB transport's CUPS quirks: unidirectional printers are never read from; usblp goes back after a job, except on a Zebra.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsbTransport, type UsbLocator } from '../../src/kinds/usb/usb-transport';
import { FakeUsbBus, type FakeUsbDevice } from '../fixtures/fake-usb';
import { InterfaceClaims } from '../../src/usb/usb-claim';
import type { DeviceError } from '../../src/errors';
import { until } from '../helpers/until';

function transportFor(bus: FakeUsbBus, device: FakeUsbDevice): UsbTransport {
  const { busNumber, portNumbers, vendorId, productId } = device.info;
  const locator: UsbLocator = { bus: busNumber, ports: portNumbers.join('.'), vendorId, productId, interface: 0 };
  return new UsbTransport({ claims: new InterfaceClaims(bus), locator, writeTimeoutMs: 1000 });
}

test('a Star printer (unidirectional quirk) gets its job byte-exact and nothing ever reads its bulk IN endpoint', async () => {
  const bus = new FakeUsbBus();
  const star = bus.add({ vendorId: 0x0519, productId: 0x0003, serialNumber: 'ST1', interfaceClass: 0xff, hasInEndpoint: true });
  star.inQueue.push(Buffer.from([0x23, 0x86, 0x00]));
  const transport = transportFor(bus, star);
  const receipt = Buffer.concat([Buffer.from([0x1b, 0x40]), Buffer.from('Star\n'), Buffer.from([0x1b, 0x64, 0x02])]);
  assert.deepEqual(await transport.send(receipt), { bytes: receipt.length });
  assert.deepEqual(star.lastJob(), receipt);
  assert.equal(await transport.query(Buffer.from([0x1b, 0x06, 0x01]), (reply) => reply.length > 0, 100), null);
  assert.equal(star.inReads, 0);
  assert.equal(star.inQueue.length, 1, 'the back-channel data is left unread');
  assert.equal(star.jobs.length, 1, 'the status query wrote nothing either');
});

test('a bidirectional printer (Epson) may be read: the same query gets its answer from bulk IN', async () => {
  const bus = new FakeUsbBus();
  const epson = bus.add({ vendorId: 0x04b8, productId: 0x0e28, serialNumber: 'EP1', hasInEndpoint: true });
  epson.inQueue.push(Buffer.from([0x14]));
  const reply = await transportFor(bus, epson).query(Buffer.from([0x10, 0x04, 0x01]), (r) => r.length > 0, 100);
  assert.deepEqual(reply, Buffer.from([0x14]));
  assert.equal(epson.inReads, 1);
});

test('usblp stays detached while the daemon holds the printer; on close it is re-attached to an Epson but not to a Zebra (CUPS no-reattach quirk)', async () => {
  const bus = new FakeUsbBus();
  const claims = new InterfaceClaims(bus);
  const epson = bus.add({ vendorId: 0x04b8, productId: 0x0e28, serialNumber: 'EP1', ports: [1], kernelDriverBound: true });
  const zebra = bus.add({ vendorId: 0x0a5f, productId: 0x0166, serialNumber: 'ZB1', ports: [2], kernelDriverBound: true });
  await new UsbTransport({ ...optionsFor(epson, bus), claims }).send(Buffer.from('receipt\n'));
  await new UsbTransport({ ...optionsFor(zebra, bus), claims }).send(Buffer.from('^XA^XZ'));
  await new UsbTransport({ ...optionsFor(epson, bus), claims }).send(Buffer.from('again\n'));
  assert.deepEqual([epson.kernelDetaches, epson.kernelReattaches, epson.kernelDriverBound], [1, 0, false]);
  await claims.closeAll();
  assert.deepEqual([epson.kernelDetaches, epson.kernelReattaches, epson.kernelDriverBound], [1, 1, true]);
  assert.deepEqual([zebra.kernelDetaches, zebra.kernelReattaches, zebra.kernelDriverBound], [1, 0, false]);
});

test('an unplug that fails the transfer in flight with LIBUSB_TRANSFER_ERROR (EPROTO, before the hub reports it) is a disconnect', async () => {
  const bus = new FakeUsbBus();
  const zebra = bus.add({ vendorId: 0x0a5f, productId: 0x0166, serialNumber: 'Z1' });
  zebra.disconnectAfterBytes = 20_000;
  zebra.disconnectError = 'LIBUSB_TRANSFER_ERROR';
  const transport = new UsbTransport({ ...optionsFor(zebra, bus), chunkBytes: 16 * 1024 });
  await assert.rejects(transport.send(Buffer.alloc(50_000, 0x41)), (err: DeviceError) => {
    assert.equal(err.code, 'NO_DEVICE');
    assert.match(err.message, /the printer was disconnected after 16384 of 50000 bytes$/);
    return true;
  });
});

test('a transfer error on a printer that stays on the bus is an I/O error that names it', async () => {
  const bus = new FakeUsbBus();
  const zebra = bus.add({ vendorId: 0x0a5f, productId: 0x0166, serialNumber: 'Z2' });
  zebra.failOut = 'LIBUSB_TRANSFER_ERROR';
  const transport = new UsbTransport({ ...optionsFor(zebra, bus), unplugSettleMs: 0 });
  await assert.rejects(transport.send(Buffer.from('^XA^XZ')), (err: DeviceError) => {
    assert.equal(err.code, 'IO');
    assert.match(err.message, /LIBUSB_TRANSFER_ERROR after 0 of 6 bytes$/);
    return true;
  });
});

function optionsFor(device: FakeUsbDevice, bus: FakeUsbBus) {
  const { busNumber, portNumbers, vendorId, productId } = device.info;
  return { claims: new InterfaceClaims(bus), locator: { bus: busNumber, ports: portNumbers.join('.'), vendorId, productId, interface: 0 }, writeTimeoutMs: 1000 };
}

test('a timed-out transfer counts the bytes the printer took (actual_length), and a cancel cancels the transfer in flight', async () => {
  const bus = new FakeUsbBus();
  const zebra = bus.add({ vendorId: 0x0a5f, productId: 0x0166, serialNumber: 'Z3' });
  zebra.acceptBytes = 10_000;
  const transport = new UsbTransport({ ...optionsFor(zebra, bus), writeTimeoutMs: 60_000, chunkBytes: 16 * 1024 });
  const controller = new AbortController();
  const sending = transport.send(Buffer.alloc(50_000, 0x41), controller.signal);
  await until('the printer stopped reading', () => zebra.acceptBytes === 0);
  controller.abort();
  await assert.rejects(sending, (err: DeviceError) => {
    assert.equal(err.code, 'CANCELED');
    assert.equal(err.bytesSent, 10_000);
    return true;
  });
});

test('a printer that stops reading is held within the hold limit and the job fails with WRITE_TIMEOUT after it', async () => {
  const bus = new FakeUsbBus();
  const zebra = bus.add({ vendorId: 0x0a5f, productId: 0x0166, serialNumber: 'Z4' });
  zebra.acceptBytes = 100;
  const transport = new UsbTransport({ ...optionsFor(zebra, bus), writeTimeoutMs: 20, holdLimitMs: 100 });
  await assert.rejects(transport.send(Buffer.alloc(1000, 0x41)), (err: DeviceError) => {
    assert.equal(err.code, 'WRITE_TIMEOUT');
    assert.match(err.message, /after 100 of 1000 bytes$/);
    return true;
  });
  assert.ok(zebra.transfers.length > 2, 'the rest was tried again until the limit');
});

test('a Zebra that answers ~HS on bulk IN is asked (the unidirectional quirk gave way); one that does not answer reads as silence', async () => {
  const bus = new FakeUsbBus();
  const zebra = bus.add({ vendorId: 0x0a5f, productId: 0x0166, serialNumber: 'Z5', hasInEndpoint: true });
  zebra.inQueue.push(Buffer.from('\x02030,0,1,1218,000,0,0,0,000,0,0,0\x03\r\n\x02001,0,0,0,1,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n', 'latin1'));
  const transport = transportFor(bus, zebra);
  const { zplPreflightOver } = await import('../../src/languages/zpl/zpl-probe');
  const zplUsbPreflight = (t: typeof transport, ms: number) => zplPreflightOver(t, ms, false);
  const paused = await zplUsbPreflight(transport, 100);
  assert.equal(paused.kind, 'not-ready');
  assert.deepEqual(paused.kind === 'not-ready' && paused.readiness.errors, ['Printer is paused (may need calibration — press the feed button)']);
  assert.deepEqual(await zplUsbPreflight(transport, 100), { kind: 'silent' });
});
