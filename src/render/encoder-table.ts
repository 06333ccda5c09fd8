// Output → encoder: every page-drawing language of src/languages at the printer's resolution, and PNG for previews.
import { monoPngEncoder } from '../encoders/mono-png';
import type { PageEncoderFactory } from '../encoders/page-encoder';
import { LANGUAGES } from '../languages';
import type { EncodeSpec } from './render-job';

/** The encoder of each output a render can write at `dpi` dots per inch for a printer of `model`; a language without pages has none. */
export const ENCODERS: Readonly<Partial<Record<EncodeSpec['language'], (dpi: number, model?: string) => PageEncoderFactory>>> = {
  ...Object.fromEntries(Object.values(LANGUAGES).flatMap((language) => (language.pages ? [[language.name, language.pages.encoderFor]] : []))),
  png: () => monoPngEncoder,
};
