// What a host that matches HostSchema may still get wrong: an IP literal that is not a valid address.
import { isIP } from 'node:net';

/** Null when `host` (already matching HostSchema) is a usable host; else what is wrong, for a 400 naming the field. */
export function hostProblem(host: string): string | null {
  const bare = host.replace(/^\[|\]$/g, '');
  if (host.includes(':') && isIP(bare) !== 6) return 'is not a valid IPv6 address';
  if (/^[0-9.]+$/.test(host) && isIP(host) !== 4) return 'is not a valid IPv4 address';
  return null;
}
