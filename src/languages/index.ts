// The printer languages this build speaks; adding a language is one folder and one line here.
import type { ContentKind } from '../schemas/printer';
import { DOCUMENT } from './document';
import { ESCPOS } from './escpos';
import type { LanguageModule, LanguageName } from './printer-language';
import { TSPL } from './tspl';
import { ZPL } from './zpl';

/** Every language by name. */
export const LANGUAGES: Readonly<Record<LanguageName, LanguageModule>> = {
  zpl: ZPL,
  escpos: ESCPOS,
  tspl: TSPL,
  document: DOCUMENT,
};

/** The language of a byte-stream printer (TCP, USB) whose record says `content` (raw is ESC/POS, pdf documents). */
export function languageOfContent(content: ContentKind): LanguageModule {
  return Object.values(LANGUAGES).find((language) => language.content === content) ?? ESCPOS;
}

export type { DeviceQueries, InterruptedJobRule, LanguageModule, LanguageName, TestDocument, TestPrintInfo, TransportName } from './printer-language';
