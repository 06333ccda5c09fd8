// The libusb backend over a stand-in for node-usb that keeps its one-handle-per-device behaviour (device.cc: Open, Close).
import { test } from 'node:test';
import assert from 'node:assert/strict';

/** node-usb's Device as far as the backend uses it: open() on an open device does nothing, close() ends the one handle. */
class NodeUsbDevice {
  busNumber = 1;
  deviceAddress = 7;
  portNumbers = [1];
  timeout = 0;
  opened = false;
  readonly written: Buffer[] = [];
  /** The next bulk transfer completes with this error, as node-usb reports a transfer status (libusb_error_name of it, and errno). */
  failTransfer: Error | null = null;
  deviceDescriptor = { idVendor: 0x04b8, idProduct: 0x0e28, bDeviceClass: 0, iSerialNumber: 3, iManufacturer: 1, iProduct: 2 };
  configDescriptor = {
    bConfigurationValue: 1,
    interfaces: [[{ bInterfaceNumber: 0, bAlternateSetting: 0, bInterfaceClass: 7, bInterfaceSubClass: 1, bInterfaceProtocol: 2, endpoints: [{ bEndpointAddress: 0x01, bmAttributes: 2, wMaxPacketSize: 64 }] }]],
  };

  open(): void {
    this.opened = true;
  }

  close(): void {
    this.opened = false;
  }

  getStringDescriptor(index: number, callback: (err?: Error, value?: string) => void): void {
    if (!this.opened) return callback(new Error('LIBUSB_ERROR_IO: device not open'));
    setImmediate(() => callback(undefined, ['', 'EPSON', 'TM-T20III', 'EP1'][index]));
  }

  interface(n: number) {
    if (!this.opened) throw new TypeError(`interface ${n}: the device is closed`);
    const device = this;
    return {
      isKernelDriverActive: () => false,
      detachKernelDriver: () => undefined,
      attachKernelDriver: () => undefined,
      claim: () => undefined,
      release: (_closeEndpoints: boolean, callback: () => void) => callback(),
      endpoint: () => ({
        timeout: 0,
        // node-usb's Transfer: the callback has the error, the buffer and actual_length (the bytes moved, on failure too)
        makeTransfer(_timeout: number, callback: (err: Error | undefined, buffer: Buffer, actual: number) => void) {
          return {
            submit(data: Buffer) {
              const failure = device.failTransfer;
              device.failTransfer = null;
              if (!failure) device.written.push(data);
              setImmediate(() => callback(failure ?? undefined, data, failure ? 0 : data.length));
            },
            cancel: () => false,
          };
        },
      }),
    };
  }
}

const device = new NodeUsbDevice();
// the backend loads node-usb with require() on first use; this stand-in is what it finds
require.cache[require.resolve('usb')] = { loaded: true, exports: { getDeviceList: () => [device], usb: { on: () => undefined, off: () => undefined } } } as NodeJS.Module;
const { libusbBackend } = require('../../src/usb/libusb-backend') as typeof import('../../src/usb/libusb-backend');

test('listing the bus while a job holds the device does not close the job’s handle; the last close does', async () => {
  const backend = libusbBackend();
  const [info] = await backend.list();
  assert.deepEqual([info.serialNumber, info.manufacturer, info.product], ['EP1', 'EPSON', 'TM-T20III']);
  assert.equal(device.opened, false, 'listing alone leaves the device closed');
  const job = await backend.open(info);
  await job.claim(0);
  await job.bulkOut(0, 0x01, Buffer.from('first '), 100);
  await backend.list();
  const probe = await backend.open(info);
  probe.close();
  await job.bulkOut(0, 0x01, Buffer.from('second'), 100);
  assert.equal(Buffer.concat(device.written).toString(), 'first second');
  job.close();
  assert.equal(device.opened, false);
});

test('a transfer that completes with a status keeps the LIBUSB_TRANSFER_* name node-usb gives it', async () => {
  const backend = libusbBackend();
  const [info] = await backend.list();
  const handle = await backend.open(info);
  for (const [status, name] of [[2, 'LIBUSB_TRANSFER_TIMED_OUT'], [4, 'LIBUSB_TRANSFER_STALL'], [5, 'LIBUSB_TRANSFER_NO_DEVICE'], [1, 'LIBUSB_TRANSFER_ERROR']] as const) {
    device.failTransfer = Object.assign(new Error(name), { errno: status });
    await assert.rejects(handle.bulkOut(0, 0x01, Buffer.from('x'), 100), { name });
  }
  handle.close();
});
