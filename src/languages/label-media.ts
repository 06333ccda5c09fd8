// What every label language shares when shared over IPP: the rendered formats and the label sizes offered.

/** What phones and CUPS send, rendered on the device for label and receipt printers. */
export const RENDERED_FORMATS: readonly string[] = ['application/pdf', 'image/pwg-raster', 'image/urf', 'image/jpeg', 'image/png'];

/** Label sizes offered (PWG 5101.1 names), the default (4x6 in) first. */
export const LABEL_MEDIA: readonly string[] = ['na_index-4x6_4x6in', 'oe_4x3-label_4x3in', 'oe_4x2-label_4x2in', 'oe_3x2-label_3x2in', 'oe_2x1-label_2x1in', 'oe_4x8-label_4x8in'];
