// Content-Type of a static file by its extension, and whether that type is worth compressing.

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  webmanifest: 'application/manifest+json',
  map: 'application/json',
  txt: 'text/plain; charset=utf-8',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  ttf: 'font/ttf',
  otf: 'font/otf',
  wasm: 'application/wasm',
  pdf: 'application/pdf',
};

const COMPRESSIBLE = new Set(['html', 'htm', 'js', 'mjs', 'css', 'json', 'webmanifest', 'map', 'txt', 'xml', 'svg', 'ico', 'ttf', 'otf', 'wasm']);

/** Lower-cased extension of a file name without the dot ('' when none). */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(fileName.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** The Content-Type to answer for `fileName`; application/octet-stream for unknown extensions. */
export function contentTypeOf(fileName: string): string {
  return TYPES[extensionOf(fileName)] ?? 'application/octet-stream';
}

/** True for text-like types that brotli or gzip shrink (never for already-compressed images and fonts). */
export function isCompressible(fileName: string): boolean {
  return COMPRESSIBLE.has(extensionOf(fileName));
}
