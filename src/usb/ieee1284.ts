// Tolerant parser of IEEE 1284 device IDs (GET_DEVICE_ID), and what they say about a printer.
import { DeviceIdError } from '../errors';
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

/** Command-set words of receipt printers: Epson ESC/POS and Star's command sets. */
const RECEIPT_LANGUAGES = /^(ESC\/POS|ESCPOS|ESC-POS|STAR\w*)$/;

/** Command-set words of page printers (lasers, inkjets): PCL, PostScript, raster and the Epson/Canon inkjet languages. */
const PAGE_LANGUAGES = /^(PCL|PCLXL|PCL\d|PXL|POSTSCRIPT|PS|BR-SCRIPT|PJL|URF|PWG|PWGRASTER|PWG-RASTER|APPLE-RASTER|ESC\/P|ESC\/P-?R|ESCPR\d*|ESCPL2|ESC\/P2|BJ|BJL|BJRASTER\d*|IVEC|UFR\w*|CAPT|GDI|HBP|LIDIL|PCL3GUI|SPL\w*|XPS|OPENXPS)$/;

/**
 * What a printer takes, by its 1284 command set: ZPL → zpl (first: a printer listing ZPL and TSPL gets ZPL, the language
 * with pre-flight recovery and unprinted-label counts); TSPL or TSPL2 → tspl; PDF → pdf (passed through as a document, as on a raw 9100
 * socket); a page printer's language without PDF (PCL, PostScript, raster, inkjet, ESC/P) → null: not a receipt printer and
 * nothing this daemon can print on, so not offered; anything else (ESC/POS, STAR, or no CMD) → raw (a receipt printer).
 */
export function contentOf(id: DeviceId): ContentKind | null {
  const commands = (id.CMD ?? '').toUpperCase().split(/[,\s]+/).filter(Boolean);
  if (commands.some((c) => c.startsWith('ZPL'))) return 'zpl';
  if (commands.some((c) => /^TSPL\d*$/.test(c))) return 'tspl';
  if (commands.some((c) => c === 'PDF' || c === 'APPLICATION/PDF')) return 'pdf';
  if (commands.some((c) => RECEIPT_LANGUAGES.test(c))) return 'raw';
  if (commands.some((c) => PAGE_LANGUAGES.test(c))) return null;
  return 'raw';
}
