// USB printer class requests (USB Printer Class 1.1): GET_DEVICE_ID and GET_PORT_STATUS, and what port status means.
import type { LiveStatus } from '../schemas/printer';
import type { UsbHandle } from './usb-backend';

const CLASS_INTERFACE_IN = 0xa1;
const GET_DEVICE_ID = 0;
const GET_PORT_STATUS = 1;

/** Asks the 1284 device ID of `interfaceNumber` (wIndex carries interface and alternate setting). */
export function getDeviceId(handle: UsbHandle, configIndex: number, interfaceNumber: number, alternate: number, timeoutMs: number): Promise<Buffer> {
  return handle.controlIn(CLASS_INTERFACE_IN, GET_DEVICE_ID, configIndex, (interfaceNumber << 8) | alternate, 1023, timeoutMs);
}

/** Reads the one-byte port status of `interfaceNumber`. */
export async function getPortStatus(handle: UsbHandle, interfaceNumber: number, timeoutMs: number): Promise<number> {
  const reply = await handle.controlIn(CLASS_INTERFACE_IN, GET_PORT_STATUS, 0, interfaceNumber, 1, timeoutMs);
  return reply[0] ?? 0;
}

/** decisions.md mapping: paper empty (bit 5) → media-empty-error, not selected (bit 4 clear) → offline-report, error (bit 3 clear) → other-error. */
export function portStatusToLive(bits: number): LiveStatus {
  const reasons: string[] = [];
  if (bits & 0x20) reasons.push('media-empty-error');
  if (!(bits & 0x10)) reasons.push('offline-report');
  if (!(bits & 0x08)) reasons.push('other-error');
  return { status: reasons.length === 0 ? 'online' : 'error', statusReasons: reasons };
}
