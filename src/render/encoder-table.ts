// Printer language → encoder. A new language is one file in src/encoders, one EncodeSpec member and one line here.
import { escposRasterEncoder } from '../encoders/escpos-raster';
import type { PageEncoderFactory } from '../encoders/page-encoder';
import { zplLabelEncoder } from '../encoders/zpl-label';
import type { EncodeSpec } from './render-job';

/** The encoder of each printer language a render can write. */
export const ENCODERS: Readonly<Record<EncodeSpec['language'], PageEncoderFactory>> = {
  zpl: zplLabelEncoder,
  escpos: escposRasterEncoder,
};
