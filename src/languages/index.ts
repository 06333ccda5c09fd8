// The printer languages this build speaks; adding a language is one folder and one line here. What is read off the table
// as a whole (rank order, the fallback, the content list, the raw port's host queries) is below it.
import type { ContentKind } from '../schemas/printer';
import { DOCUMENT } from './document';
import { DYMO } from './dymo';
import { EPL2 } from './epl2';
import { ESCPOS } from './escpos';
import type { HostQuerySyntax, LanguageModule } from './printer-language';
import { TSPL } from './tspl';
import { ZPL } from './zpl';

/** Every language by name. */
export const LANGUAGES = {
  zpl: ZPL,
  escpos: ESCPOS,
  tspl: TSPL,
  document: DOCUMENT,
  epl2: EPL2,
  dymo: DYMO,
} satisfies Record<string, LanguageModule>;

const BY_RANK: readonly LanguageModule[] = Object.values<LanguageModule>(LANGUAGES).sort((a, b) => a.rank - b.rank);

/** Every language, lowest rank first (the order they are tried on one device). */
export function languagesByRank(): readonly LanguageModule[] {
  return BY_RANK;
}

/** The language of a byte printer no language recognises (the one marked `fallback`: ESC/POS). */
export function fallbackLanguage(): LanguageModule {
  const found = BY_RANK.find((language) => language.fallback);
  if (!found) throw new Error('the language table has no fallback language');
  return found;
}

/** The language of a byte-stream printer (TCP, USB) whose record says `content`; the fallback for an unknown one. */
export function languageOfContent(content: ContentKind): LanguageModule {
  return BY_RANK.find((language) => language.content === content) ?? fallbackLanguage();
}

/** Every printer record `content` of this build, in rank order (the values of the printer schema's `content`). */
export const CONTENT_KINDS: readonly string[] = [...new Set(BY_RANK.map((language) => language.content))];

/** The host queries a raw port finds in its clients' streams (of the first language by rank that has them), or null. */
export const RAW_PORT_HOST_QUERIES: HostQuerySyntax | null = BY_RANK.find((language) => language.rawPortQueries)?.rawPortQueries ?? null;

export type { DeviceQueries, HostQuery, HostQuerySyntax, InterruptedJobRule, LanguageModule, LanguageName, TestDocument, TestPrintInfo, TransportName, UsbDeviceIds } from './printer-language';
