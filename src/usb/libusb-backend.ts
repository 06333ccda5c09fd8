// The UsbBackend over libusb (`usb@2.18.0`, legacy API): kept thin enough to read whole.
import type { Device, InEndpoint, OutEndpoint } from 'usb';
import type { Logger } from '../log';
import { hotplugMode, hotplugModeText, type HotplugMode } from './hotplug-mode';
import { sysfsHolds, sysfsStrings } from './sysfs-usb';
import { watchSysfsUsb, type SysfsDevice } from './sysfs-usb-watch';
import { UsbError, type UsbBackend, type UsbDeviceInfo, type UsbErrorName, type UsbHandle } from './usb-backend';

const TRANSFER_TYPES = ['control', 'isochronous', 'bulk', 'interrupt'] as const;

type UsbModule = typeof import('usb');
let loaded: UsbModule | null = null;
/**
 * Our open handles per device. node-usb hands out one Device object, and one libusb handle, per device, so opening
 * an open device does nothing and closing it ends every user: it is opened for the first of ours and closed after the last.
 */
const openCount = new Map<Device, number>();

/** How often sysfs is listed for hotplug when udevd is not running (ms). */
const SYSFS_POLL_MS = 1000;

/**
 * The real USB bus; loads the libusb addon on first use and throws when it cannot (the prebuilt usb.node needs
 * libudev.so.1). Hotplug comes from udevd, or without it from sysfs (hotplug-mode.ts); `logger` hears which, at once, and of attaches libusb cannot see.
 */
export function libusbBackend(logger?: Logger): UsbBackend {
  // loaded here rather than at import, so a device without working libusb still serves everything else
  loaded ??= loadAddon();
  const mode = hotplugMode();
  if (mode === 'udev') logger?.info(hotplugModeText(mode));
  else logger?.warn(hotplugModeText(mode));
  return {
    hotplug: mode,
    hotplugText: hotplugModeText(mode),
    list: async () => Promise.all(current(mode).map(describeOnce)),
    open: async (info) => openDevice(findDevice(info)),
    watch: (onAttach, onDetach) => (mode === 'udev' ? watchUdev(onAttach, onDetach) : watchSysfs(onAttach, onDetach, logger)),
  };
}

/** Loads node-usb; an addon that cannot load for want of libudev says so in words (the image needs eudev: docs/device-image.md). */
function loadAddon(): UsbModule {
  try {
    return require('usb') as UsbModule;
  } catch (err) {
    const text = (err as Error).message;
    if (/libudev\.so/.test(text)) throw new Error(`the libusb addon (usb.node) needs libudev.so.1, which this system lacks (install eudev): ${text}`);
    throw err;
  }
}

/** libusb's devices; without udevd its list keeps devices that left, so those sysfs no longer has are left out. */
function current(mode: HotplugMode): Device[] {
  const devices = loaded!.getDeviceList();
  return mode === 'udev' ? devices : devices.filter((d) => sysfsHolds(d.busNumber, d.portNumbers ?? [], d.deviceAddress));
}

type Watch = UsbBackend['watch'];

/** libusb's own hotplug events, which udevd's messages drive. */
function watchUdev(...[onAttach, onDetach]: Parameters<Watch>): ReturnType<Watch> {
  const { usb } = loaded!;
  const attach = (device: Device) => void describe(device).then(onAttach, () => undefined);
  const detach = (device: Device) => onDetach({ busNumber: device.busNumber, deviceAddress: device.deviceAddress, portNumbers: device.portNumbers ?? [] });
  usb.on('attach', attach);
  usb.on('detach', detach);
  return () => {
    usb.off('attach', attach);
    usb.off('detach', detach);
  };
}

/** Hotplug from sysfs listings: a detach as it is; an attach when libusb lists the device (it does not without udevd: said once per device). */
function watchSysfs(onAttach: Parameters<Watch>[0], onDetach: Parameters<Watch>[1], logger: Logger | undefined): ReturnType<Watch> {
  const added = (found: SysfsDevice) => {
    const device = loaded!.getDeviceList().find((d) => d.busNumber === found.busNumber && d.deviceAddress === found.deviceAddress);
    if (device) return void describe(device).then(onAttach, () => undefined);
    logger?.warn(
      `USB device attached at ${found.busNumber}-${found.portNumbers.join('.')} is not visible to libusb: udevd is not running; start udevd (eudev) or restart printproxyd to use it`,
    );
  };
  const watch = watchSysfsUsb({ intervalMs: SYSFS_POLL_MS, onAdd: added, onRemove: onDetach });
  return () => watch.stop();
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
  const strings = await deviceStrings(device);
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
    // every alternate setting of every interface: the printer one need not be the first (usb-identify chooses)
    interfaces: (config?.interfaces ?? []).flat().map((i) => ({
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
    })),
  };
}

/**
 * Serial, manufacturer and product: from sysfs where the kernel has them (so a printer another process or usblp holds
 * keeps its serial and its `usb_sn_` path), else from the device's string descriptors, opening it.
 */
async function deviceStrings(device: Device): Promise<[string, string, string]> {
  const d = device.deviceDescriptor;
  const sysfs = sysfsStrings(device.busNumber, device.portNumbers ?? [], device.deviceAddress);
  const wanted = [
    [d.iSerialNumber, sysfs.serialNumber],
    [d.iManufacturer, sysfs.manufacturer],
    [d.iProduct, sysfs.product],
  ] as const;
  const missing = wanted.map(([index, known]) => (known === undefined ? index : 0));
  const read = missing.some(Boolean) ? await readStrings(device, missing) : ['', '', ''];
  return wanted.map(([, known], n) => known ?? read[n] ?? '') as [string, string, string];
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
    claim: async (n, alternate = 0) => {
      const iface = device.interface(n);
      const bound = wrap(() => iface.isKernelDriverActive());
      if (bound) wrap(() => iface.detachKernelDriver());
      wrap(() => iface.claim());
      if (alternate !== 0) await selectAlternate(device, n, alternate);
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

/** libusb_set_interface_alt_setting on a claimed interface (node-usb keeps the chosen setting's endpoints after it). */
function selectAlternate(device: Device, n: number, alternate: number): Promise<void> {
  return new Promise((resolve, reject) => device.interface(n).setAltSetting(alternate, (err) => (err ? reject(usbError(err)) : resolve())));
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
