// The content of a new raw TCP printer: the first language (by rank) whose network probe it answers, else the fallback.
import { fallbackLanguage, languagesByRank } from '../languages';
import type { ContentKind } from '../schemas/printer';
import type { Transport } from '../transports/transport';

/** Asks each TCP language that has a probe, in rank order, within `timeoutMs` each; the fallback language when none answers. */
export async function probeRawContent(transport: Transport, timeoutMs: number): Promise<ContentKind> {
  for (const language of languagesByRank()) {
    if (!language.probe || !language.transports.includes('tcp')) continue;
    if (await language.probe(transport, timeoutMs)) return language.content;
  }
  return fallbackLanguage().content;
}
