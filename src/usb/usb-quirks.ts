// The CUPS USB quirks honoured here, by vendor: unidirectional printers, and printers usblp must not go back onto.
import type { UsbEndpointInfo, UsbInterfaceInfo } from './usb-backend';

/**
 * CUPS `unidir`: Star reports a bulk IN endpoint but must never be read from. CUPS lists Zebra too; here a Zebra is
 * asked `~HS` with a short read time limit and counts as send-only when it does not answer (ask, and fall back).
 */
const UNIDIRECTIONAL_VENDORS = new Set([0x0519]);
/** CUPS `no-reattach`: Zebra misbehaves when usblp is re-attached after a job. */
const NO_REATTACH_VENDORS = new Set([0x0a5f]);

/** The bulk IN endpoint the backend may read, or null when there is none or the printer is unidirectional (CUPS read_endp = -1). */
export function readEndpoint(vendorId: number, iface: UsbInterfaceInfo): UsbEndpointInfo | null {
  if (UNIDIRECTIONAL_VENDORS.has(vendorId)) return null;
  return iface.endpoints.find((e) => e.direction === 'in' && e.transferType === 'bulk') ?? null;
}

/** Whether to re-attach the kernel driver on release: only when we detached it, and never on a Zebra. */
export function reattachesKernelDriver(vendorId: number, detached: boolean): boolean {
  return detached && !NO_REATTACH_VENDORS.has(vendorId);
}
