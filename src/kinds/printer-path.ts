// What every kind's printer paths share: the host slug, the raw-socket path form, and the stable 8-character id.
import { createHash } from 'node:crypto';

/** Host with dots and colons as dashes, lower-cased (`10.0.0.5` → `10-0-0-5`). */
export function hostSlug(host: string): string {
  return host.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '');
}

/** The path of a printer on a raw TCP socket (`tcp_<host>_<port>`), however it was found (by hand, or `_pdl-datastream`). */
export function rawSocketPath(host: string, port: number): string {
  return `tcp_${hostSlug(host)}_${port}`;
}

/** Stable id: 8 uppercase alphanumerics derived from the path. */
export function printerId(path: string): string {
  const digest = createHash('sha256').update(path).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from(digest.subarray(0, 8), (b) => alphabet[b % alphabet.length]).join('');
}

/** The URL of a URI form with one of `schemes` (`tcp://10.0.0.5:9100`), or null when it is none of them or no URL. */
export function uriOf(value: string, schemes: readonly string[]): URL | null {
  const match = /^([a-z]+):\/\//i.exec(value);
  if (!match || !schemes.includes(match[1].toLowerCase())) return null;
  try {
    return new URL(value);
  } catch {
    return null;
  }
}
