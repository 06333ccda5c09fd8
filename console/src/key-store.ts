// Where the API key is kept: this tab's session storage, or local storage when "Remember on this browser" was ticked.

const NAME = 'printproxyd.apiKey';

/** The kept key, local storage first; null when signed out. */
export function loadKey(): string | null {
  return localStorage.getItem(NAME) ?? sessionStorage.getItem(NAME);
}

/** Keeps `key` in local storage when `remember`, else in session storage; the other one is cleared. */
export function saveKey(key: string, remember: boolean): void {
  (remember ? localStorage : sessionStorage).setItem(NAME, key);
  (remember ? sessionStorage : localStorage).removeItem(NAME);
}

/** Replaces the kept key where it is kept (after a rotation). */
export function replaceKey(key: string): void {
  saveKey(key, localStorage.getItem(NAME) !== null);
}

/** Forgets the key everywhere (sign out). */
export function clearKey(): void {
  localStorage.removeItem(NAME);
  sessionStorage.removeItem(NAME);
}
