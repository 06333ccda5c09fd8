// An IPP connection: its default ports, its printer URI, its path and URI forms, and the check of a manual one.
import { AppError } from '../../errors';
import type { Connection } from '../../schemas/printer';
import { hostProblem } from '../host-problem';
import { hostSlug, uriOf } from '../printer-path';

/** Default port per IPP protocol. */
export const IPP_DEFAULT_PORTS: Readonly<Record<string, number>> = { ipp: 631, ipps: 631, http: 631, https: 443 };

/** Default IPP resource path. */
export const DEFAULT_IPP_RESOURCE = '/ipp/print';

/** The port of an IPP connection: its own, else its protocol's default. */
function portOf(connection: Pick<Connection, 'port' | 'protocol'>): number {
  return connection.port ?? IPP_DEFAULT_PORTS[connection.protocol ?? 'ipp'] ?? IPP_DEFAULT_PORTS.ipp;
}

/** The printer URI of a network IPP connection (`ipp://host:port/resource`, `ipps://` for ipps and https). */
export function ippUri(connection: Connection): string {
  const scheme = connection.protocol === 'ipps' || connection.protocol === 'https' ? 'ipps' : 'ipp';
  const host = connection.host?.includes(':') ? `[${connection.host}]` : connection.host;
  return `${scheme}://${host}:${portOf(connection)}${connection.resourcePath ?? DEFAULT_IPP_RESOURCE}`;
}

/** `ipp_<host>_<port>[_<resource>]` of an IPP connection (the resource only when it is not /ipp/print). */
export function ippPath(connection: Pick<Connection, 'host' | 'port' | 'protocol' | 'resourcePath'>): string {
  const resource = connection.resourcePath && connection.resourcePath !== DEFAULT_IPP_RESOURCE ? `_${hostSlug(connection.resourcePath)}` : '';
  return `ipp_${hostSlug(connection.host ?? '')}_${portOf(connection)}${resource}`;
}

/** The path an `ipp://`, `ipps://`, `http://` or `https://` URI names, or null for any other value. */
export function ippPathFromUri(value: string): string | null {
  const url = uriOf(value, ['ipp', 'ipps', 'http', 'https']);
  if (!url) return null;
  const protocol = url.protocol.replace(':', '').toLowerCase() as NonNullable<Connection['protocol']>;
  return ippPath({ host: url.hostname.replace(/^\[|\]$/g, ''), port: url.port ? Number(url.port) : undefined, protocol, resourcePath: url.pathname || undefined });
}

/** A manual IPP connection checked (a usable host) and completed (its port); throws AppError INVALID_REQUEST. */
export function locateIpp(connection: Connection): Connection {
  const problem = hostProblem(connection.host ?? '');
  if (problem) throw new AppError('INVALID_REQUEST', `connection.host ${problem}`);
  return { ...connection, port: portOf(connection) };
}
