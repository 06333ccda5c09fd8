// Pages → EPL2 labels: per page a line feed, N, q (width), Q (length, gap), one GW graphic and P1,copies.
import { invertedRasterCommand } from '../../encoders/inverted-raster';
import { labelSequenceEncoder } from '../../encoders/label-sequence';
import type { MonoBitmap } from '../../encoders/mono-bitmap';
import type { PageEncoderFactory } from '../../encoders/page-encoder';

/** Media settings written before each label; every field has the default of `EPL2_DEFAULTS`. */
export interface Epl2EncoderOptions {
  /** Printer resolution in dots per inch (203 on the LP/TLP 2844, 300 on the 3842 and 300 dpi G-series). */
  dpi: number;
  /** Gap between die-cut labels in mm; written in Q as dots at `dpi`; 0 is continuous media. */
  gapMm: number;
}

/** A 203 dpi printer with die-cut labels 3 mm apart (24 dots, the gap most 2844 setups use). */
export const EPL2_DEFAULTS: Readonly<Epl2EncoderOptions> = { dpi: 203, gapMm: 3 };

const ascii = (text: string) => Buffer.from(text, 'latin1');

/** A length in mm as whole dots at `dpi`. */
export function mmToDots(mm: number, dpi: number): number {
  return Math.round((mm * dpi) / 25.4);
}

/**
 * The lines before the graphic, CRLF-ended. The leading line end closes whatever half line the printer still holds
 * (the manual asks for a line feed before N); N clears the image buffer; q sets the width and Q the length and gap in dots.
 */
function header(page: MonoBitmap, o: Epl2EncoderOptions): string {
  return ['', 'N', `q${page.width}`, `Q${page.height},${mmToDots(o.gapMm, o.dpi)}`, ''].join('\r\n');
}

/**
 * `GW0,0,<bytes per row>,<rows>,<data>` then CRLF. In GW data a 0 bit prints a dot and a 1 bit leaves the paper white,
 * the opposite of MonoBitmap, so every byte is inverted (the padding bits past the width become white).
 */
export function graphicCommand(page: MonoBitmap): Buffer {
  return invertedRasterCommand(`GW0,0,${page.bytesPerRow},${page.height},`, page);
}

/** One whole label of `page`, printed `copies` times: `P1,<copies>` is one label set of that many copies. */
export function epl2Label(page: MonoBitmap, copies: number, options: Epl2EncoderOptions = EPL2_DEFAULTS): Buffer {
  return Buffer.concat([ascii(header(page, options)), graphicCommand(page), ascii(`P1,${copies}\r\n`)]);
}

/** An encoder factory with `options` (dpi, gap) over EPL2_DEFAULTS; one label per page. */
export function epl2EncoderWith(options: Partial<Epl2EncoderOptions> = {}): PageEncoderFactory {
  const settings = { ...EPL2_DEFAULTS, ...options };
  return labelSequenceEncoder((page, copies) => [epl2Label(page, copies, settings)]);
}

/** The encoder of a printer of `dpi` dots per inch, media at EPL2_DEFAULTS otherwise. */
export function epl2EncoderFor(dpi: number): PageEncoderFactory {
  return epl2EncoderWith({ dpi });
}
