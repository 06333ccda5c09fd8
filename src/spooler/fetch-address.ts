// Which addresses a document fetch may connect to: everything but link-local, multicast, unspecified and broadcast
// (loopback and LAN stay allowed: local tools and ERP servers live there).
import { isIP } from 'node:net';
import dns from 'node:dns';
import { DeviceError } from '../errors';

/** True for addresses no fetch may reach: 169.254/16, fe80::/10, 224/4, ff00::/8, 0/8, ::, 255.255.255.255, and their IPv4-mapped forms. */
export function refusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return refusedV4(address);
  if (family !== 6) return true;
  const lower = address.toLowerCase();
  const mapped = /^(?:0{0,4}:){0,5}(?:0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower) ?? /^::(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped) return refusedV4(mapped[1]);
  const words = expandV6(lower);
  if (words.every((w) => w === 0)) return true;
  if ((words[0] & 0xffc0) === 0xfe80) return true;
  if ((words[0] & 0xff00) === 0xff00) return true;
  // ::ffff:a.b.c.d written in hex words
  if (words.slice(0, 5).every((w) => w === 0) && words[5] === 0xffff) return refusedV4(`${words[6] >> 8}.${words[6] & 0xff}.${words[7] >> 8}.${words[7] & 0xff}`);
  return false;
}

function refusedV4(address: string): boolean {
  const [a, b] = address.split('.').map(Number);
  return a === 0 || (a === 169 && b === 254) || (a >= 224 && a <= 239) || address === '255.255.255.255';
}

function expandV6(address: string): number[] {
  const withoutZone = address.split('%')[0];
  const [head, tail] = withoutZone.includes('::') ? withoutZone.split('::') : [withoutZone, null];
  const parse = (part: string) => (part === '' ? [] : part.split(':').flatMap((w) => (w.includes('.') ? v4Words(w) : [Number.parseInt(w, 16)])));
  const left = parse(head);
  const right = tail === null ? [] : parse(tail);
  return [...left, ...new Array(Math.max(0, 8 - left.length - right.length)).fill(0), ...right];
}

function v4Words(dotted: string): number[] {
  const [a, b, c, d] = dotted.split('.').map(Number);
  return [(a << 8) | b, (c << 8) | d];
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** A `lookup` for http.request that resolves with `resolve` (dns.lookup by default) and fails with `fetchRefused()` when any answer is refused. */
export function guardedLookup(resolve: typeof dns.lookup = dns.lookup) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) {
        callback(err, []);
        return;
      }
      const list = addresses as dns.LookupAddress[];
      if (list.length === 0 || list.some((a) => refusedAddress(a.address))) {
        callback(fetchRefused() as NodeJS.ErrnoException, []);
        return;
      }
      if (options.all) callback(null, list);
      else callback(null, list[0].address, list[0].family);
    });
  };
}

/** The job error of a refused fetch: `fetch refused`, and nothing about the target. */
export function fetchRefused(): DeviceError {
  return new DeviceError('FETCH_FAILED', 'fetch refused');
}
