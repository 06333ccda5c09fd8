// Which LabelWriter protocol a printer speaks: the 450 family's (450, 450 Turbo, Twin Turbo, Duo, 4XL) or the 550 series' (550, 550 Turbo, 5XL), and its encoder.
import type { PageEncoderFactory } from '../../encoders/page-encoder';
import type { PrinterRecord } from '../../schemas/printer';
import { dymo550EncoderWith } from './dymo-550-encoder';
import { dymo450EncoderFor } from './dymo-encoder';

/** The two LabelWriter print protocols; they are not wire-compatible. */
export type DymoFamily = '450' | '550';

/** `550` when the printer's model names a 550 (550, 550 Turbo) or a 5XL, else `450` (the older protocol, and the default). */
export function dymoFamilyOf(printer: Pick<PrinterRecord, 'model'>): DymoFamily {
  return /\b(550|5XL)\b/i.test(printer.model ?? '') ? '550' : '450';
}

/** The encoder for a printer of `family` at `dpi`: the 550 series' job stream, or the 450 family's raster. */
export function dymoEncoderFor(family: DymoFamily, dpi: number): PageEncoderFactory {
  return family === '550' ? dymo550EncoderWith({ dpi: dpi === 600 ? 600 : 300 }) : dymo450EncoderFor(dpi);
}
