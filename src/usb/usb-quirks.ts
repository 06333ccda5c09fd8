// The CUPS USB quirks (cups-usb-quirks.ts) this daemon acts on, by device. Acted on: `unidir` (never read the bulk IN
// endpoint), `no-reattach` (leave usblp off after use), `blacklist` (not offered as a printer), `vendor-class` (a
// vendor-specific interface is the printer interface). Ignored, on purpose: `soft-reset` (CUPS resets the device after
// a job; a reset re-enumerates it and would cost us the claim and the path's address), `delay-close` (CUPS waits before
// closing; we keep the interface claimed while the printer is plugged in, so there is no close after each job),
// `usb-init` (no entry uses it) and `whitelist` (the default).
import { CUPS_USB_QUIRKS, type CupsQuirk } from './cups-usb-quirks';
import type { UsbEndpointInfo, UsbInterfaceInfo } from './usb-backend';

/** The CUPS quirks of a device: its vendor-and-product line, else its vendor-wide line, else none (CUPS find_quirks). */
export function quirksOf(vendorId: number, productId: number): ReadonlySet<CupsQuirk> {
  const exact = CUPS_USB_QUIRKS.find(([v, p]) => v === vendorId && p === productId);
  const vendor = exact ?? CUPS_USB_QUIRKS.find(([v, p]) => v === vendorId && p === null);
  return new Set(vendor?.[2] ?? []);
}

/**
 * Vendors whose `unidir` line is not followed: CUPS lists every Zebra, but a Zebra answers `~HS` on its bulk IN
 * endpoint; here it is asked with a short read time limit and counts as send-only when it does not answer.
 */
const ASKED_DESPITE_UNIDIR = new Set([0x0a5f]);

/** The bulk IN endpoint the backend may read, or null when there is none or the printer is unidirectional (CUPS read_endp = -1). */
export function readEndpoint(vendorId: number, iface: UsbInterfaceInfo, productId = -1): UsbEndpointInfo | null {
  if (quirksOf(vendorId, productId).has('unidir') && !ASKED_DESPITE_UNIDIR.has(vendorId)) return null;
  return iface.endpoints.find((e) => e.direction === 'in' && e.transferType === 'bulk') ?? null;
}

/** Whether to re-attach the kernel driver on release: only when we detached it, and never on a `no-reattach` printer (every Zebra). */
export function reattachesKernelDriver(vendorId: number, detached: boolean, productId = -1): boolean {
  return detached && !quirksOf(vendorId, productId).has('no-reattach');
}

/** Whether CUPS lists the device as not working with a USB backend (Canon SELPHY photo printers): never offered. */
export function isBlacklisted(vendorId: number, productId: number): boolean {
  return quirksOf(vendorId, productId).has('blacklist');
}

/** Whether the device's printer interface is vendor-specific (class 255) rather than class 7 (Epson TM-T88 04b8:0202). */
export function usesVendorClass(vendorId: number, productId: number): boolean {
  return quirksOf(vendorId, productId).has('vendor-class');
}
