// The web console's static mount: its files (embedded in the bundle, or a folder), served at `/` with the page's security headers.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { staticDirectory, type StaticFiles } from './static-dir';
import { memoryFiles } from './static-memory';
import type { StaticMount } from './static-site';

/** JSON of the console's files (name → base64), defined by firmware/bundle.mjs; undefined when running from source. */
declare const PRINTPROXY_CONSOLE_FILES: string | undefined;

/**
 * Headers of every console answer: scripts, styles, images and connections only from the device itself (`connect-src 'self'`
 * covers its own WebSocket), previews as blob: images, no framing, no referrer.
 */
export const CONSOLE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/** Where the console comes from: a folder given by the operator, else the files the bundle embeds, else dist/console of a source checkout. */
export interface ConsoleSource {
  /** `--console-dir`: a built console to serve instead of the embedded one. */
  dir?: string;
}

/** The console mount, or null when no console is built (a source checkout before `npm run build`); rejects when `dir` cannot be read. */
export async function consoleMount(source: ConsoleSource): Promise<StaticMount | null> {
  const files = await consoleFiles(source);
  return files ? { urlPrefix: '/', files, spa: true, headers: CONSOLE_HEADERS } : null;
}

async function consoleFiles(source: ConsoleSource): Promise<StaticFiles | null> {
  if (source.dir) return staticDirectory(source.dir);
  if (typeof PRINTPROXY_CONSOLE_FILES === 'string') return memoryFiles(JSON.parse(PRINTPROXY_CONSOLE_FILES) as Record<string, string>);
  const built = join(__dirname, '..', '..', 'dist', 'console');
  return existsSync(join(built, 'index.html')) ? staticDirectory(built) : null;
}
