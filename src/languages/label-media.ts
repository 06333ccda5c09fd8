// What every label language shares when shared over IPP: the rendered formats, the label sizes, the texts.
import type { DeclaredFormat } from '../schemas/document-format';
import type { LanguageModule } from './printer-language';

/** What phones and CUPS send, rendered on the device for label and receipt printers. */
export const RENDERED_FORMATS: readonly string[] = ['application/pdf', 'image/pwg-raster', 'image/urf', 'image/jpeg', 'image/png'];

/** Label sizes offered (PWG 5101.1 names), the default (4x6 in) first. */
export const LABEL_MEDIA: readonly string[] = ['na_index-4x6_4x6in', 'oe_4x3-label_4x3in', 'oe_4x2-label_4x2in', 'oe_3x2-label_3x2in', 'oe_2x1-label_2x1in', 'oe_4x8-label_4x8in'];

/** The IPP facts of a label language whose own bytes are `mimeType` (declared to the spooler as `declared`), named `name` in texts. */
export function labelPrinterIpp(name: string, mimeType: string, declared: DeclaredFormat): LanguageModule['ipp'] {
  return {
    formats: () => [...RENDERED_FORMATS, mimeType, 'application/octet-stream'],
    declared: { [mimeType]: declared },
    media: () => [...LABEL_MEDIA],
    mediaType: 'labels',
    mediaSource: 'main-roll',
    supplyDescription: 'Labels',
    modelText: `${name} label printer`,
    commandSet: name,
    dnsSdKind: 'label',
  };
}
