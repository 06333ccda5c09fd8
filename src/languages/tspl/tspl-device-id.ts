// Whether an IEEE 1284 device id names TSPL among its command sets (TSC, Godex, Xprinter… send `CMD:TSPL;` or `TSPL2`).
import type { DeviceId } from '../../usb/ieee1284';

/** TSPL and its numbered versions (TSPL2), as a CMD word. */
const TSPL_WORD = /^TSPL\d*$/;

/** The CMD words of a device id, upper-cased (`CMD:TSPL,ZPL2` → TSPL, ZPL2). */
function commandWords(id: DeviceId): string[] {
  return (id.CMD ?? '').toUpperCase().split(/[,;\s]+/).filter(Boolean);
}

/** True when the device id's CMD field lists TSPL or TSPL2 (any case, any position). */
export function speaksTspl(id: DeviceId): boolean {
  return commandWords(id).some((word) => TSPL_WORD.test(word));
}
