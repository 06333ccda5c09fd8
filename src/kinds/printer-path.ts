// Printer paths and ids: `tcp_<host>_<port>`, `ipp_<host>_<port>`, URI forms, and the stable 8-character id.
import { createHash } from 'node:crypto';
import type { Connection } from '../schemas/printer';

/** Default ports per protocol of a printer connection: the one table (paths, URIs, new printers read it). */
export const DEFAULT_PORTS: Record<string, number> = { tcp: 9100, ipp: 631, ipps: 631, http: 631, https: 443 };

/** Default IPP resource path. */
export const DEFAULT_IPP_RESOURCE = '/ipp/print';

/** Host with dots and colons as dashes, lower-cased (`10.0.0.5` → `10-0-0-5`). */
export function hostSlug(host: string): string {
  return host.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '');
}

/** The addressable path of a network printer from its connection. */
export function networkPath(connection: Pick<Connection, 'host' | 'port' | 'protocol' | 'resourcePath'>): string {
  const protocol = connection.protocol ?? 'tcp';
  const port = connection.port ?? DEFAULT_PORTS[protocol] ?? 9100;
  const host = hostSlug(connection.host ?? '');
  if (protocol === 'tcp') return `tcp_${host}_${port}`;
  const resource = connection.resourcePath && connection.resourcePath !== DEFAULT_IPP_RESOURCE ? `_${hostSlug(connection.resourcePath)}` : '';
  return `ipp_${host}_${port}${resource}`;
}

/** Stable id: 8 uppercase alphanumerics derived from the path. */
export function printerId(path: string): string {
  const digest = createHash('sha256').update(path).digest();
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from(digest.subarray(0, 8), (b) => alphabet[b % alphabet.length]).join('');
}

/** Turns a URI form (`tcp://10.0.0.5:9100`, `ipp://host:631/ipp/print`) into a path; null when not a URI. */
export function pathFromUri(value: string): string | null {
  const match = /^(tcp|socket|ipp|ipps|http|https):\/\//i.exec(value);
  if (!match) return null;
  let url: URL;
  try {
    url = new URL(value.replace(/^socket:/i, 'tcp:'));
  } catch {
    return null;
  }
  const protocol = url.protocol.replace(':', '').toLowerCase() as NonNullable<Connection['protocol']>;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port ? Number(url.port) : undefined;
  return networkPath({ host, port, protocol, resourcePath: protocol === 'tcp' ? undefined : url.pathname || undefined });
}
