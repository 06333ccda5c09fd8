// Whether a USB device is a DYMO LabelWriter: by vendor and product id, or by its IEEE 1284 id (MFG DYMO, MDL LabelWriter…).
import type { DeviceId } from '../../usb/ieee1284';

/** DYMO's (Sanford's) USB vendor id. */
export const DYMO_VENDOR_ID = 0x0922;

/**
 * LabelWriter product ids. 0x0020 (450) and 0x0021 (450 Turbo): Google's chrome-extensions-samples usb-label-printer;
 * 0x0025 (4XL), 0x0028 (550), 0x002a (5XL): published lsusb captures; 0x0022/0x0023 (450 Twin Turbo, 450 Duo) and 0x0029
 * (550 Turbo) follow usb.ids' order and are unconfirmed. The 1284 id check below covers a model whose id differs.
 */
export const LABELWRITER_PRODUCT_IDS: Readonly<Record<number, string>> = {
  0x0020: 'LabelWriter 450',
  0x0021: 'LabelWriter 450 Turbo',
  0x0022: 'LabelWriter 450 Twin Turbo',
  0x0023: 'LabelWriter 450 Duo',
  0x0025: 'LabelWriter 4XL',
  0x0028: 'LabelWriter 550',
  0x0029: 'LabelWriter 550 Turbo',
  0x002a: 'LabelWriter 5XL',
};

/** The 1284 id a LabelWriter 450 sends (its CMD is empty: it has no command-set name). */
export const DYMO_450_DEVICE_ID = 'MFG:DYMO;CMD: ;MDL:LabelWriter 450;CLASS:PRINTER;DESCRIPTION:DYMO LabelWriter 450;';

/** True for MFG DYMO with an MDL starting `LabelWriter` (any case). */
export function isLabelWriterId(id: DeviceId): boolean {
  return (id.MFG ?? '').trim().toUpperCase() === 'DYMO' && /^LABELWRITER\b/i.test((id.MDL ?? '').trim());
}

/** True for DYMO's vendor id with a LabelWriter product id, or a LabelWriter 1284 id. */
export function matchesLabelWriter(id: DeviceId, device: { vendorId: number; productId: number }): boolean {
  const byIds = device.vendorId === DYMO_VENDOR_ID && Object.hasOwn(LABELWRITER_PRODUCT_IDS, device.productId);
  return byIds || isLabelWriterId(id);
}
