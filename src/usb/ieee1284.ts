// Tolerant parser of IEEE 1284 device IDs (GET_DEVICE_ID), and what they say about a printer.
import { DeviceIdError } from '../errors';
import { fallbackLanguage, languagesByRank, type UsbDeviceIds } from '../languages';
import type { ContentKind } from '../schemas/printer';

/** Keys of a device ID, upper-cased, values trimmed (`MFG`, `MDL`, `CMD`, …, long names folded to short ones). */
export type DeviceId = Record<string, string>;

const ALIASES: Record<string, string> = { MANUFACTURER: 'MFG', MODEL: 'MDL', 'COMMAND SET': 'CMD', COMMANDSET: 'CMD', DESCRIPTION: 'DES', CLASS: 'CLS' };

/** The ID text of a GET_DEVICE_ID reply: big-endian length first, little-endian when that is the only one that fits. */
export function deviceIdText(reply: Uint8Array): string {
  if (reply.length < 2) throw new DeviceIdError(`device ID reply of ${reply.length} bytes`);
  const be = (reply[0] << 8) | reply[1];
  const le = (reply[1] << 8) | reply[0];
  const fits = (n: number) => n >= 2 && n <= reply.length;
  const length = fits(be) ? be : fits(le) ? le : reply.length;
  return Buffer.from(reply.subarray(2, length)).toString('latin1').replace(/\0+$/, '');
}

/** Parses `KEY:value;KEY:value;` pairs; pieces without a colon are skipped. */
export function parseDeviceId(text: string): DeviceId {
  const id: DeviceId = {};
  for (const part of text.split(';')) {
    const colon = part.indexOf(':');
    if (colon <= 0) continue;
    const raw = part.slice(0, colon).trim().toUpperCase();
    const key = ALIASES[raw] ?? raw;
    if (!id[key]) id[key] = part.slice(colon + 1).trim();
  }
  return id;
}

/** The model name: MFG and MDL, without repeating the maker. */
export function modelOf(id: DeviceId, fallback: string): string {
  const mfg = id.MFG ?? '';
  const mdl = id.MDL ?? '';
  if (!mdl) return (mfg || fallback).trim();
  return mdl.toLowerCase().startsWith(mfg.toLowerCase()) ? mdl : `${mfg} ${mdl}`.trim();
}

/** Command-set words of page printers (lasers, inkjets): PCL, PostScript, raster and the Epson/Canon inkjet languages. */
const PAGE_LANGUAGES = /^(PCL|PCLXL|PCL\d|PXL|POSTSCRIPT|PS|BR-SCRIPT|PJL|URF|PWG|PWGRASTER|PWG-RASTER|APPLE-RASTER|ESC\/P|ESC\/P-?R|ESCPR\d*|ESCPL2|ESC\/P2|BJ|BJL|BJRASTER\d*|IVEC|UFR\w*|CAPT|GDI|HBP|LIDIL|PCL3GUI|SPL\w*|XPS|OPENXPS)$/;

/**
 * What a printer takes: the content of the first language (in the table's rank order) that recognises its 1284 id or
 * USB ids; a page printer's language without one of those (PCL, PostScript, raster, inkjet, ESC/P) → null: nothing this
 * daemon can print on, so not offered; anything else (no CMD, unknown words) → the table's fallback language.
 */
export function contentOf(id: DeviceId, device: UsbDeviceIds): ContentKind | null {
  const spoken = languagesByRank().find((language) => language.usb?.matches(id, device));
  if (spoken) return spoken.content;
  const commands = (id.CMD ?? '').toUpperCase().split(/[,\s]+/).filter(Boolean);
  if (commands.some((c) => PAGE_LANGUAGES.test(c))) return null;
  return fallbackLanguage().content;
}
