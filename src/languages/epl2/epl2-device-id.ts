// Whether an IEEE 1284 device id names EPL (the LP/TLP 2844 send `COMMAND SET:EPL`; some firmware says EPL2) and not ZPL.
import type { DeviceId } from '../../usb/ieee1284';

/** EPL and its numbered versions (EPL1, EPL2), as a CMD word. */
const EPL_WORD = /^EPL\d*$/;
/** ZPL and ZPL II as CMD words. */
const ZPL_WORD = /^ZPL/;

/** The CMD words of a device id, upper-cased (`CMD:EPL2,ZPL` → EPL2, ZPL). */
function commandWords(id: DeviceId): string[] {
  return (id.CMD ?? '').toUpperCase().split(/[,;\s]+/).filter(Boolean);
}

/**
 * True when the device id's CMD lists EPL or EPL2 and no ZPL: a G-series printer listing both takes ZPL, the language
 * with pre-flight recovery and unprinted-label counts. The USB vendor and product ids are not consulted: Zebra's
 * 0a5f is shared by its ZPL and EPL models, so the command set alone decides.
 */
export function speaksEpl2(id: DeviceId): boolean {
  const words = commandWords(id);
  return words.some((word) => EPL_WORD.test(word)) && !words.some((word) => ZPL_WORD.test(word));
}
