// Cache-Control of a static file: HTML always revalidates, content-hashed names are cached for a year.

/** Answer for files whose name carries a content hash: they never change under that name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Answer for every other file: the browser keeps it but asks each time (a cheap 304 through the ETag). */
export const REVALIDATE = 'no-cache';

// The last `-` or `.` separated part before the extension(s): 8+ of [A-Za-z0-9_], e.g. index-BxT3k9aQ.js, main.3f2a9c1b.css
const HASHED = /[.-]([A-Za-z0-9_]{8,})\.[A-Za-z0-9]+(?:\.map)?$/;

/**
 * True when the file name carries a content hash, as bundlers emit them: that part holds a digit,
 * or both lower- and upper-case letters (so plain words such as `-component.js` do not count).
 */
export function hasContentHash(fileName: string): boolean {
  const part = HASHED.exec(fileName.slice(fileName.lastIndexOf('/') + 1))?.[1];
  if (!part) return false;
  return /\d/.test(part) || (/[a-z]/.test(part) && /[A-Z]/.test(part));
}

/** Cache-Control for `fileName`: `no-cache` for HTML and unhashed names, a year and `immutable` for hashed ones. */
export function cacheControlOf(fileName: string): string {
  if (/\.html?$/i.test(fileName)) return REVALIDATE;
  return hasContentHash(fileName) ? IMMUTABLE : REVALIDATE;
}
