// Printer language → encoder. A new language is one file in src/encoders, one EncodeSpec member and one line here.
import { escposRasterEncoder } from '../encoders/escpos-raster';
import type { PageEncoderFactory } from '../encoders/page-encoder';
import { monoPngEncoder } from '../encoders/mono-png';
import { zplLabelEncoder } from '../encoders/zpl-label';
import type { EncodeSpec } from './render-job';

/** The encoder of each output a render can write (printer languages, and PNG for previews). */
export const ENCODERS: Readonly<Record<EncodeSpec['language'], PageEncoderFactory>> = {
  zpl: zplLabelEncoder,
  escpos: escposRasterEncoder,
  png: monoPngEncoder,
};
