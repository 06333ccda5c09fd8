// Print options (seed 2.5): the schema that validates them and the type every filter and driver reads.
import { Type, type Static } from '@sinclair/typebox';

/** Seed 2.5 options plus `dither` (label printers only). Unknown keys are rejected; unsupported-but-valid values are ignored by drivers. */
export const PrintOptionsSchema = Type.Object(
  {
    copies: Type.Optional(Type.Integer({ minimum: 1, maximum: 9999 })),
    duplex: Type.Optional(Type.Union([Type.Literal('one-sided'), Type.Literal('long-edge'), Type.Literal('short-edge')])),
    colorMode: Type.Optional(Type.Union([Type.Literal('color'), Type.Literal('grayscale'), Type.Literal('auto')])),
    paperSize: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    pageRange: Type.Optional(Type.String({ pattern: '^\\s*\\d+(\\s*-\\s*\\d+)?(\\s*,\\s*\\d+(\\s*-\\s*\\d+)?)*\\s*$', maxLength: 256 })),
    bin: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    fitToPage: Type.Optional(Type.Boolean()),
    orientation: Type.Optional(
      Type.Union([Type.Literal('portrait'), Type.Literal('landscape'), Type.Literal('reverse-landscape'), Type.Literal('reverse-portrait')]),
    ),
    quality: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('normal'), Type.Literal('high')])),
    dither: Type.Optional(
      Type.Boolean({
        description: 'Error-diffusion dithering instead of the black threshold, for photographic PDFs on label printers; overrides the printer\'s dither setting. Other printers ignore it (seed 2.5).',
      }),
    ),
  },
  { additionalProperties: false },
);

/** Validated print options. */
export type PrintOptions = Static<typeof PrintOptionsSchema>;

/** Parses a validated `pageRange` ("1-5", "1,3,7-9") into inclusive 1-based ranges, in the order given. */
export function parsePageRanges(spec: string): Array<[number, number]> {
  return spec
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const [a, b] = part.split('-').map((n) => Number.parseInt(n.trim(), 10));
      return [a, b ?? a] as [number, number];
    });
}
