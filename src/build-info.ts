// Version and build identity, baked in by the bundler; development runs report the package version.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

declare const PRINTPROXY_BUILD: { version: string; buildVersion: string; builtAt: string } | undefined;

/** Software version, build identifier and build date (YYYY-MM-DD). */
export interface BuildInfo {
  version: string;
  buildVersion: string;
  builtAt: string;
}

/** The build info of this binary: the bundler's constants, else package.json and today's date marked `dev`. */
export function buildInfo(): BuildInfo {
  if (typeof PRINTPROXY_BUILD !== 'undefined') return PRINTPROXY_BUILD;
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  return { version: pkg.version, buildVersion: `${pkg.version}-dev`, builtAt: new Date().toISOString().slice(0, 10) };
}

/** What `--version` prints: this build's info and the Node it runs on (`node`, e.g. "24.21.0"), as one JSON line. */
export function versionLine(): string {
  return JSON.stringify({ ...buildInfo(), node: process.versions.node });
}
