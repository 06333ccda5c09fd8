// The command-set words of an IEEE 1284 device id, as languages recognise themselves in it.
import type { DeviceId } from '../usb/ieee1284';

/** The CMD words of a device id, upper-cased (`CMD:TSPL,ZPL2;` → TSPL, ZPL2). */
export function commandWords(id: DeviceId): string[] {
  return (id.CMD ?? '').toUpperCase().split(/[,;\s]+/).filter(Boolean);
}
