// Media a shared printer offers (PWG 5101.1 names): label sizes for label printers, the roll width for receipt printers.
import { parseMediaSize } from '../render/media-size';
import type { PrinterLanguage } from '../filters/filters';
import type { PrinterRecord } from '../schemas/printer';

/** One medium: its PWG name and size in hundredths of a millimetre (IPP media-size units). */
export interface Medium {
  name: string;
  width: number;
  length: number;
}

/** Label sizes offered, the default (4x6 in) first. */
const LABELS = ['na_index-4x6_4x6in', 'oe_4x3-label_4x3in', 'oe_4x2-label_4x2in', 'oe_3x2-label_3x2in', 'oe_2x1-label_2x1in', 'oe_4x8-label_4x8in'];

/** Media of a printer, default first: labels for label printers, a receipt as long as A4 on the roll's width, the office printer's own. */
export function mediaOf(printer: PrinterRecord, language: PrinterLanguage): Medium[] {
  const names = language === 'zpl' ? LABELS : language === 'escpos' ? [`roll_receipt-${printer.paperWidth ?? 80}mm_${printer.paperWidth ?? 80}x297mm`] : officeMedia(printer);
  return names.flatMap((name) => {
    const size = parseMediaSize(name);
    return size ? [{ name, width: Math.round((size.widthPt / 72) * 2540), length: Math.round((size.heightPt / 72) * 2540) }] : [];
  });
}

function officeMedia(printer: PrinterRecord): string[] {
  const own = (printer.capabilities?.mediaSupported ?? []).filter((name) => parseMediaSize(name) !== null);
  return own.length > 0 ? own : ['iso_a4_210x297mm', 'na_letter_8.5x11in'];
}

/** `paperSize` when it is one of `media` (by name, or by size within 1 mm), else undefined: other sizes are ignored (ipp-attribute-fidelity false). */
export function offeredPaperSize(paperSize: string | undefined, media: Medium[]): string | undefined {
  const size = paperSize ? parseMediaSize(paperSize) : null;
  if (!paperSize || !size) return undefined;
  const [w, l] = [Math.round((size.widthPt / 72) * 2540), Math.round((size.heightPt / 72) * 2540)];
  return media.some((m) => m.name === paperSize || (Math.abs(m.width - w) <= 100 && Math.abs(m.length - l) <= 100)) ? paperSize : undefined;
}

/** The paperSize option of an IPP `media` keyword or media-size (hundredths of mm), when it names a size. */
export function paperSizeOf(media: string | null, size: { x: number; y: number } | null): string | undefined {
  if (media && parseMediaSize(media)) return media;
  if (size && size.x > 0 && size.y > 0) return `${size.x / 100}x${size.y / 100}mm`;
  return undefined;
}
