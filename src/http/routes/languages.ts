// GET /languages: the printer languages of this build, read from the language table (the console's lists of contents).
import { languagesByRank } from '../../languages';
import { LanguageListSchema, type LanguageInfo } from '../../schemas/language';
import type { Route } from '../route';

/** Each language's content, shown name, kind (its pages' geometry, else document), default resolution and transports, in rank order. */
function languageList(): LanguageInfo[] {
  return languagesByRank().map(({ content, displayName, pages, defaultDpi, transports }) => ({ content, displayName, kind: pages?.geometry ?? 'document', defaultDpi, transports: [...transports] }));
}

/** The read-only languages route. */
export function languageRoutes(): Route[] {
  return [
    {
      method: 'get', path: '/languages', tag: 'printers', response: LanguageListSchema,
      summary: 'The printer languages this build speaks: each one\'s printer content, name, default resolution and transports',
      handler: () => ({ message: 'Successfully obtained the printer languages.', content: languageList() }),
    },
  ];
}
