// The UsbBackend over libusb (`usb@2.18.0`, legacy API): kept thin enough to read whole.
import type { Device, InEndpoint, OutEndpoint } from 'usb';
import { UsbError, type UsbBackend, type UsbDeviceInfo, type UsbErrorName, type UsbHandle } from './usb-backend';

const TRANSFER_TYPES = ['control', 'isochronous', 'bulk', 'interrupt'] as const;

type UsbModule = typeof import('usb');
let loaded: UsbModule | null = null;
/**
 * Our open handles per device. node-usb hands out one Device object, and one libusb handle, per device, so opening
 * an open device does nothing and closing it ends every user: it is opened for the first of ours and closed after the last.
 */
const openCount = new Map<Device, number>();

/** The real USB bus; loads the libusb addon on first use and throws when it cannot. */
export function libusbBackend(): UsbBackend {
  // loaded here rather than at import, so a device without working libusb still serves everything else
  const { getDeviceList, usb } = (loaded ??= require('usb') as UsbModule);
  return {
    list: async () => Promise.all(getDeviceList().map(describeOnce)),
    open: async (info) => openDevice(findDevice(info)),
    watch(onAttach, onDetach) {
      const attach = (device: Device) => void describe(device).then(onAttach, () => undefined);
      const detach = (device: Device) => onDetach({ busNumber: device.busNumber, deviceAddress: device.deviceAddress, portNumbers: device.portNumbers ?? [] });
      usb.on('attach', attach);
      usb.on('detach', detach);
      return () => {
        usb.off('attach', attach);
        usb.off('detach', detach);
      };
    },
  };
}

function findDevice(info: UsbDeviceInfo): Device {
  const device = loaded!.getDeviceList().find((d) => d.busNumber === info.busNumber && d.deviceAddress === info.deviceAddress);
  if (!device) throw new UsbError('LIBUSB_ERROR_NO_DEVICE');
  return device;
}

/** What each device (node-usb keeps one Device object per device while it is attached) was described as. */
const described = new WeakMap<Device, UsbDeviceInfo>();

/**
 * A device's description, read once: reading it opens the device (synchronous open and close ioctls), and status
 * probes list the bus each time, so reading it again stalled the event loop at every probe. Strings that could not be
 * read (a device busy at the time) are read again next time.
 */
async function describeOnce(device: Device): Promise<UsbDeviceInfo> {
  const known = described.get(device);
  if (known) return known;
  const info = await describe(device);
  const d = device.deviceDescriptor;
  const complete = (!d.iSerialNumber || info.serialNumber) && (!d.iManufacturer || info.manufacturer) && (!d.iProduct || info.product);
  if (complete) described.set(device, info);
  return info;
}

async function describe(device: Device): Promise<UsbDeviceInfo> {
  const d = device.deviceDescriptor;
  let config: Device['configDescriptor'] | undefined;
  try {
    config = device.configDescriptor;
  } catch {
    config = undefined;
  }
  const strings = await readStrings(device, [d.iSerialNumber, d.iManufacturer, d.iProduct]);
  return {
    busNumber: device.busNumber,
    deviceAddress: device.deviceAddress,
    portNumbers: device.portNumbers ?? [],
    vendorId: d.idVendor,
    productId: d.idProduct,
    deviceClass: d.bDeviceClass,
    serialNumber: strings[0],
    manufacturer: strings[1],
    product: strings[2],
    configurationValue: config?.bConfigurationValue ?? 1,
    interfaces: (config?.interfaces ?? []).map((alts) => {
      const i = alts[0];
      return {
        number: i.bInterfaceNumber,
        alternate: i.bAlternateSetting,
        interfaceClass: i.bInterfaceClass,
        interfaceSubclass: i.bInterfaceSubClass,
        interfaceProtocol: i.bInterfaceProtocol,
        endpoints: i.endpoints.map((e) => ({
          address: e.bEndpointAddress,
          direction: e.bEndpointAddress & 0x80 ? ('in' as const) : ('out' as const),
          transferType: TRANSFER_TYPES[e.bmAttributes & 0x3],
          maxPacketSize: e.wMaxPacketSize,
        })),
      };
    }),
  };
}

/** Reads string descriptors; a device we may not open yields empty strings. */
async function readStrings(device: Device, indexes: number[]): Promise<string[]> {
  try {
    acquire(device);
  } catch {
    return indexes.map(() => '');
  }
  try {
    return await Promise.all(
      indexes.map((index) => (index ? new Promise<string>((resolve) => device.getStringDescriptor(index, (err, value) => resolve(err ? '' : (value ?? '').trim()))) : Promise.resolve(''))),
    );
  } finally {
    unacquire(device);
  }
}

function acquire(device: Device): void {
  const count = openCount.get(device) ?? 0;
  if (count === 0) device.open();
  openCount.set(device, count + 1);
}

function unacquire(device: Device): void {
  const count = (openCount.get(device) ?? 1) - 1;
  if (count > 0) {
    openCount.set(device, count);
    return;
  }
  openCount.delete(device);
  try {
    device.close();
  } catch {
    // already closed or gone
  }
}

function openDevice(device: Device): UsbHandle {
  wrap(() => acquire(device));
  let open = true;
  return {
    controlIn: (type, request, value, index, length, timeoutMs) =>
      new Promise((resolve, reject) => {
        device.timeout = timeoutMs;
        device.controlTransfer(type, request, value, index, length, (err, data) => (err ? reject(usbError(err)) : resolve(Buffer.from((data as Buffer | undefined) ?? []))));
      }),
    claim: async (n) => {
      const iface = device.interface(n);
      const bound = wrap(() => iface.isKernelDriverActive());
      if (bound) wrap(() => iface.detachKernelDriver());
      wrap(() => iface.claim());
      return bound;
    },
    release: (n, reattach) =>
      new Promise((resolve) => {
        const iface = device.interface(n);
        iface.release(true, () => {
          if (reattach) {
            try {
              iface.attachKernelDriver();
            } catch {
              // the kernel driver may be gone; nothing to restore
            }
          }
          resolve();
        });
      }),
    bulkOut: (n, address, data, timeoutMs, signal) =>
      new Promise((resolve, reject) => {
        const endpoint = device.interface(n).endpoint(address) as OutEndpoint;
        const cancel = () => {
          try {
            transfer.cancel();
          } catch {
            // already completed
          }
        };
        // makeTransfer rather than transfer(): its callback has actual_length on failure too, and the transfer can be cancelled
        const transfer = endpoint.makeTransfer(timeoutMs, (err, _buffer, actual) => {
          signal?.removeEventListener('abort', cancel);
          if (err) reject(usbError(err, actual));
          else resolve();
        });
        try {
          transfer.submit(Buffer.from(data));
        } catch (err) {
          reject(usbError(err));
          return;
        }
        if (signal?.aborted) cancel();
        else signal?.addEventListener('abort', cancel, { once: true });
      }),
    clearHalt: (n, address) =>
      new Promise((resolve, reject) => {
        device.interface(n).endpoint(address)!.clearHalt((err) => (err ? reject(usbError(err)) : resolve()));
      }),
    bulkIn: (n, address, length, timeoutMs) =>
      new Promise((resolve, reject) => {
        const endpoint = device.interface(n).endpoint(address) as InEndpoint;
        endpoint.timeout = timeoutMs;
        endpoint.transfer(length, (err, data) => (err ? reject(usbError(err)) : resolve(Buffer.from(data ?? []))));
      }),
    close: () => {
      if (open) unacquire(device);
      open = false;
    },
  };
}

function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw usbError(err);
  }
}

function usbError(err: unknown, actualLength = 0): UsbError {
  const text = err instanceof Error ? err.message : String(err);
  // node-usb's message is libusb_error_name(): LIBUSB_ERROR_* for calls, LIBUSB_TRANSFER_* for a transfer's status
  const name = /LIBUSB_(ERROR|TRANSFER)_[A-Z_]+/.exec(text)?.[0] as UsbErrorName | undefined;
  return new UsbError(name ?? 'LIBUSB_ERROR_OTHER', text, actualLength);
}
