// Media a shared printer offers (PWG 5101.1 names, from its language), and the paper size a job's media asks for.
import { parseMediaSize } from '../util/media-size';
import type { PrinterLanguage } from '../filters/filters';
import { LANGUAGES } from '../languages';
import type { PrinterRecord } from '../schemas/printer';

/** One medium: its PWG name and size in hundredths of a millimetre (IPP media-size units). */
export interface Medium {
  name: string;
  width: number;
  length: number;
}

/** Media of a printer, default first, as its language offers them (labels, a receipt roll, the office printer's own). */
export function mediaOf(printer: PrinterRecord, language: PrinterLanguage): Medium[] {
  return LANGUAGES[language].ipp.media(printer).flatMap((name) => {
    const size = parseMediaSize(name);
    return size ? [{ name, width: Math.round((size.widthPt / 72) * 2540), length: Math.round((size.heightPt / 72) * 2540) }] : [];
  });
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
