// The thin seam between printer code and libusb: what a USB device looks like and what can be done with it.

/** One endpoint of an interface. */
export interface UsbEndpointInfo {
  address: number;
  direction: 'in' | 'out';
  transferType: 'bulk' | 'interrupt' | 'control' | 'isochronous';
  maxPacketSize: number;
}

/** One interface (first alternate setting) of the active configuration. */
export interface UsbInterfaceInfo {
  number: number;
  alternate: number;
  interfaceClass: number;
  interfaceSubclass: number;
  interfaceProtocol: number;
  endpoints: UsbEndpointInfo[];
}

/** A device as enumerated, string descriptors already read (empty when unreadable). */
export interface UsbDeviceInfo {
  busNumber: number;
  deviceAddress: number;
  /** Hub port chain from the root, e.g. [1, 3]; stable for a physical socket. */
  portNumbers: number[];
  vendorId: number;
  productId: number;
  deviceClass: number;
  serialNumber: string;
  manufacturer: string;
  product: string;
  configurationValue: number;
  interfaces: UsbInterfaceInfo[];
}

/** An opened device. Methods reject with UsbError. */
export interface UsbHandle {
  /** A class/vendor control transfer from the device (IN), `length` bytes at most. */
  controlIn(requestType: number, request: number, value: number, index: number, length: number, timeoutMs: number): Promise<Buffer>;
  /** Claims an interface, detaching a bound kernel driver (usblp) first; resolves whether one was detached. */
  claim(interfaceNumber: number): Promise<boolean>;
  /** Releases an interface; re-attaches the kernel driver when `reattach`. */
  release(interfaceNumber: number, reattach: boolean): Promise<void>;
  /** One bulk OUT transfer (may be empty: a zero-length packet). */
  bulkOut(interfaceNumber: number, endpoint: number, data: Uint8Array, timeoutMs: number): Promise<void>;
  /** One bulk IN transfer of at most `length` bytes. */
  bulkIn(interfaceNumber: number, endpoint: number, length: number, timeoutMs: number): Promise<Buffer>;
  close(): void;
}

/** libusb error names the printer code reacts to. */
export type UsbErrorName = 'LIBUSB_ERROR_ACCESS' | 'LIBUSB_ERROR_BUSY' | 'LIBUSB_ERROR_NO_DEVICE' | 'LIBUSB_ERROR_TIMEOUT' | 'LIBUSB_ERROR_PIPE' | 'LIBUSB_ERROR_IO' | 'LIBUSB_ERROR_OTHER';

/** An error from the USB layer, named as libusb names it. */
export class UsbError extends Error {
  constructor(
    override readonly name: UsbErrorName,
    message?: string,
  ) {
    super(message ?? name);
  }
}

/** Enumeration, opening and hotplug. */
export interface UsbBackend {
  list(): Promise<UsbDeviceInfo[]>;
  open(device: UsbDeviceInfo): Promise<UsbHandle>;
  /** Calls back on attach/detach; returns a function that stops watching. */
  watch(onAttach: (device: UsbDeviceInfo) => void, onDetach: (device: Pick<UsbDeviceInfo, 'busNumber' | 'deviceAddress' | 'portNumbers'>) => void): () => void;
}

/** A key for a physical socket: bus and port chain. */
export function portKey(device: Pick<UsbDeviceInfo, 'busNumber' | 'portNumbers'>): string {
  return `${device.busNumber}-${device.portNumbers.join('.') || '0'}`;
}
