// The printer languages of the device, from GET /api/v1/languages (read once per page load): the console keeps no list.
import { useEffect, useState } from 'preact/hooks';
import type { LanguageInfo } from '../../src/schemas/language';
import { useSession } from './session';

let asked: Promise<LanguageInfo[]> | null = null;

/** The device's languages in rank order; null until they arrived, empty when they could not be read. */
export function useLanguages(): LanguageInfo[] | null {
  const { api } = useSession();
  const [languages, setLanguages] = useState<LanguageInfo[] | null>(null);
  useEffect(() => {
    asked ??= api.get<LanguageInfo[]>('/languages').catch(() => {
      asked = null;
      return [];
    });
    let live = true;
    void asked.then((list) => live && setLanguages(list));
    return () => {
      live = false;
    };
  }, [api]);
  return languages;
}

/** The language of printers whose content is `content`, if the device listed it. */
export function languageOf(languages: LanguageInfo[], content: string): LanguageInfo | undefined {
  return languages.find((language) => language.content === content);
}
