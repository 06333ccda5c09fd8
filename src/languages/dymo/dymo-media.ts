// DYMO LabelWriter label sizes (PWG 5101.1 names, width across the head first) and the IPP facts of the language.
import type { PrinterRecord } from '../../schemas/printer';
import { RENDERED_FORMATS } from '../label-media';
import type { LanguageModule } from '../printer-language';

/** Labels every LabelWriter takes (2.24 in head), the most common first: 30252 address, 30256 shipping, 30334, 99014. */
export const DYMO_LABELS: readonly string[] = [
  'oe_address-label_1.125x3.5in',
  'oe_shipping-label_2.3125x4in',
  'oe_md-multipurpose-label_2.25x1.25in',
  'oe_shipping-label_2.125x4in',
];

/** The 4XL / 5XL's 4x6 in shipping label (1744907), first on those wide-head models. */
export const DYMO_WIDE_LABEL = 'na_index-4x6_4x6in';

/** True when the printer's model names a 4.16 in head (4XL, 5XL). */
export function hasWideHead(printer: Pick<PrinterRecord, 'model'>): boolean {
  return /\b[45]XL\b/i.test(printer.model ?? '');
}

/** The label sizes offered for `printer`, default first: 4x6 in first on a 4XL/5XL, else the address label. */
export function dymoMedia(printer: Pick<PrinterRecord, 'model'>): string[] {
  return hasWideHead(printer) ? [DYMO_WIDE_LABEL, ...DYMO_LABELS] : [...DYMO_LABELS];
}

/** IPP facts of LabelWriters whose own raster is `mimeType`. */
export function dymoIpp(mimeType: string): LanguageModule['ipp'] {
  return {
    formats: () => [...RENDERED_FORMATS, mimeType, 'application/octet-stream'],
    declared: { [mimeType]: 'raw' },
    media: dymoMedia,
    mediaType: 'labels',
    mediaSource: 'main-roll',
    supplyDescription: 'Labels',
    modelText: 'LabelWriter label printer',
    commandSet: 'DYMO-LW',
    dnsSdKind: 'label',
  };
}
