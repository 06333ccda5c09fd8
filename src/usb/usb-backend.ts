// The thin seam between printer code and libusb: what a USB device looks like and what can be done with it.
import type { HotplugMode } from './hotplug-mode';

/** One endpoint of an interface. */
export interface UsbEndpointInfo {
  address: number;
  direction: 'in' | 'out';
  transferType: 'bulk' | 'interrupt' | 'control' | 'isochronous';
  maxPacketSize: number;
}

/** One alternate setting of one interface of the active configuration (a device lists every alternate setting of every interface). */
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
  /** Every alternate setting of every interface, in descriptor order (interface-select.ts picks the printer one). */
  interfaces: UsbInterfaceInfo[];
}

/** An opened device. Methods reject with UsbError. */
export interface UsbHandle {
  /** A class/vendor control transfer from the device (IN), `length` bytes at most. */
  controlIn(requestType: number, request: number, value: number, index: number, length: number, timeoutMs: number): Promise<Buffer>;
  /** Claims an interface, detaching a bound kernel driver (usblp) first, and selects `alternate` when it is not 0; resolves whether a driver was detached. */
  claim(interfaceNumber: number, alternate?: number): Promise<boolean>;
  /** Releases an interface; re-attaches the kernel driver when `reattach`. */
  release(interfaceNumber: number, reattach: boolean): Promise<void>;
  /**
   * One bulk OUT transfer (may be empty: a zero-length packet); aborting `signal` cancels it (LIBUSB_TRANSFER_CANCELLED).
   * A failed transfer's UsbError carries in `actualLength` the bytes the device took before it failed (a timed-out chunk's part).
   */
  bulkOut(interfaceNumber: number, endpoint: number, data: Uint8Array, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  /** Clears a halted (stalled) endpoint: CLEAR_FEATURE(ENDPOINT_HALT), and the host side's data toggle. */
  clearHalt(interfaceNumber: number, endpoint: number): Promise<void>;
  /** One bulk IN transfer of at most `length` bytes. */
  bulkIn(interfaceNumber: number, endpoint: number, length: number, timeoutMs: number): Promise<Buffer>;
  close(): void;
}

/**
 * libusb's names, as node-usb reports them: LIBUSB_ERROR_* for calls that fail at once (open, claim, submitting a
 * transfer to a gone device), LIBUSB_TRANSFER_* for a transfer's completion status (libusb_error_name of it).
 */
export type UsbErrorName =
  | 'LIBUSB_ERROR_ACCESS'
  | 'LIBUSB_ERROR_BUSY'
  | 'LIBUSB_ERROR_NO_DEVICE'
  | 'LIBUSB_ERROR_TIMEOUT'
  | 'LIBUSB_ERROR_PIPE'
  | 'LIBUSB_ERROR_IO'
  | 'LIBUSB_ERROR_OTHER'
  | 'LIBUSB_TRANSFER_ERROR'
  | 'LIBUSB_TRANSFER_TIMED_OUT'
  | 'LIBUSB_TRANSFER_CANCELLED'
  | 'LIBUSB_TRANSFER_STALL'
  | 'LIBUSB_TRANSFER_NO_DEVICE'
  | 'LIBUSB_TRANSFER_OVERFLOW';

/** What an error name means to a caller, whichever of libusb's two families it comes from. */
export type UsbFailure = 'access' | 'busy' | 'no-device' | 'timeout' | 'stall' | 'transfer-error' | 'other';

/** Folds libusb's call and transfer names into one meaning (LIBUSB_ERROR_TIMEOUT and LIBUSB_TRANSFER_TIMED_OUT are both a timeout). */
export function usbFailure(name: UsbErrorName): UsbFailure {
  switch (name) {
    case 'LIBUSB_ERROR_ACCESS':
      return 'access';
    case 'LIBUSB_ERROR_BUSY':
      return 'busy';
    case 'LIBUSB_ERROR_NO_DEVICE':
    case 'LIBUSB_TRANSFER_NO_DEVICE':
      return 'no-device';
    case 'LIBUSB_ERROR_TIMEOUT':
    case 'LIBUSB_TRANSFER_TIMED_OUT':
      return 'timeout';
    case 'LIBUSB_ERROR_PIPE':
    case 'LIBUSB_TRANSFER_STALL':
      return 'stall';
    // EPROTO, EILSEQ, ETIME from the host controller: what an unplug looks like before the hub reports it
    case 'LIBUSB_ERROR_IO':
    case 'LIBUSB_TRANSFER_ERROR':
      return 'transfer-error';
    case 'LIBUSB_ERROR_OTHER':
    case 'LIBUSB_TRANSFER_CANCELLED':
    case 'LIBUSB_TRANSFER_OVERFLOW':
      return 'other';
  }
}

/**
 * An error from the USB layer, named as libusb names it; a failed transfer also says how many bytes it moved first.
 * It stays outside the catalogue (src/errors.ts) on purpose: it is the libusb seam's raw failure, like a node system
 * error, never shown as it is; the USB transport turns each into a DeviceError (NO_DEVICE, ACCESS_DENIED, DEVICE_BUSY,
 * WRITE_TIMEOUT, IO) with the bytes sent and a hint, which it could not do if this already were one.
 */
export class UsbError extends Error {
  constructor(
    override readonly name: UsbErrorName,
    message?: string,
    /** Bytes the transfer moved before it ended (libusb's actual_length); 0 for calls that are not transfers. */
    readonly actualLength = 0,
  ) {
    super(message ?? name);
  }
}

/** Enumeration, opening and hotplug. */
export interface UsbBackend {
  /** How hotplug reaches this backend (hotplug-mode.ts), and the start-up line saying so; absent for a bus without the distinction (the fake). */
  readonly hotplug?: HotplugMode;
  readonly hotplugText?: string;
  list(): Promise<UsbDeviceInfo[]>;
  open(device: UsbDeviceInfo): Promise<UsbHandle>;
  /** Calls back on attach/detach; returns a function that stops watching. */
  watch(onAttach: (device: UsbDeviceInfo) => void, onDetach: (device: Pick<UsbDeviceInfo, 'busNumber' | 'deviceAddress' | 'portNumbers'>) => void): () => void;
}

/** A key for a physical socket: bus and port chain. */
export function portKey(device: Pick<UsbDeviceInfo, 'busNumber' | 'portNumbers'>): string {
  return `${device.busNumber}-${device.portNumbers.join('.') || '0'}`;
}
