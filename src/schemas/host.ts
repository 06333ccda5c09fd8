// What a printer's `connection.host` may be: a hostname (RFC 1123 labels) or an IP address literal.
import { Type } from '@sinclair/typebox';
import { isIP } from 'node:net';

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const HOSTNAME = `${LABEL}(?:\\.${LABEL})*\\.?`;
const IPV6 = '\\[?[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?::?[0-9]{1,3}(?:\\.[0-9]{1,3}){3})?\\]?';

/** A hostname or an IP literal (IPv6 with or without brackets); `hostProblem` finishes what a pattern cannot check. */
export const HostSchema = Type.String({ minLength: 1, maxLength: 253, pattern: `^(?:${HOSTNAME}|${IPV6})$`, description: 'a hostname or an IP address' });

/** Null when `host` (already matching HostSchema) is a usable host; else what is wrong, for a 400 naming the field. */
export function hostProblem(host: string): string | null {
  const bare = host.replace(/^\[|\]$/g, '');
  if (host.includes(':') && isIP(bare) !== 6) return 'is not a valid IPv6 address';
  if (/^[0-9.]+$/.test(host) && isIP(host) !== 4) return 'is not a valid IPv4 address';
  return null;
}
