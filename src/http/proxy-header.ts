// The PROXY protocol v2 header (haproxy's proxy-protocol.txt, section 2.2) that tells uWS a connection's real peer.
import { isIPv4, isIPv6 } from 'node:net';

const SIGNATURE = Buffer.from([0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a]);
const PROXY_COMMAND = 0x21;
const TCP4 = 0x11;
const TCP6 = 0x21;

/** The binary v2 header for a TCP connection from `source` to `destination`; a LOCAL header (no addresses) when either is unknown or the families differ. */
export function proxyV2Header(source: { address?: string; port?: number }, destination: { address?: string; port?: number }): Buffer {
  const from = addressBytes(source.address);
  const to = addressBytes(destination.address);
  if (!from || !to || from.length !== to.length) return Buffer.concat([SIGNATURE, Buffer.from([0x20, 0x00, 0x00, 0x00])]);
  const ports = Buffer.alloc(4);
  ports.writeUInt16BE(source.port ?? 0, 0);
  ports.writeUInt16BE(destination.port ?? 0, 2);
  const body = Buffer.concat([from, to, ports]);
  const head = Buffer.from([PROXY_COMMAND, from.length === 4 ? TCP4 : TCP6, 0, 0]);
  head.writeUInt16BE(body.length, 2);
  return Buffer.concat([SIGNATURE, head, body]);
}

/** 4 bytes for an IPv4 address, 16 for an IPv6 one (an embedded IPv4 tail included), null for anything else. */
export function addressBytes(address: string | undefined): Buffer | null {
  if (!address) return null;
  if (isIPv4(address)) return Buffer.from(address.split('.').map(Number));
  if (!isIPv6(address)) return null;
  const bare = address.split('%')[0];
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  const hex = tail ? bare.slice(0, -tail[1].length) + ipv4AsGroups(tail[1]) : bare;
  const [left, right] = hex.includes('::') ? hex.split('::') : [hex, null];
  const head = left ? left.split(':') : [];
  const rest = right === null ? [] : right ? right.split(':') : [];
  const groups = [...head, ...Array<string>(8 - head.length - rest.length).fill('0'), ...rest];
  const bytes = Buffer.alloc(16);
  groups.forEach((g, i) => bytes.writeUInt16BE(parseInt(g, 16), i * 2));
  return bytes;
}

function ipv4AsGroups(v4: string): string {
  const [a, b, c, d] = v4.split('.').map(Number);
  return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}
