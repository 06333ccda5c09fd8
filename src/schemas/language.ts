// The printer languages of this build as the API lists them (GET /api/v1/languages): read from the language table.
import { Type, type Static } from '@sinclair/typebox';
import { ContentKindSchema } from './printer';

/** One printer language: the `content` of its printers, its name as shown, what it prints, its default resolution and transports. */
export const LanguageInfoSchema = Type.Object({
  content: ContentKindSchema,
  displayName: Type.String({ description: 'the language as people read it' }),
  kind: Type.Union([Type.Literal('label'), Type.Literal('receipt'), Type.Literal('document')], {
    description: 'what the device draws documents into for it: labels, receipts fitted to the roll, or nothing (the printer renders documents itself)',
  }),
  defaultDpi: Type.Union([Type.Integer(), Type.Null()], { description: 'the resolution assumed when the printer reports none; null: the printer renders documents itself' }),
  transports: Type.Array(Type.Union([Type.Literal('tcp'), Type.Literal('usb'), Type.Literal('ipp')]), { description: 'how a printer of this language is reached' }),
});
/** One printer language as listed. */
export type LanguageInfo = Static<typeof LanguageInfoSchema>;

/** Every printer language of this build, in the order they are tried on one device. */
export const LanguageListSchema = Type.Array(LanguageInfoSchema);
