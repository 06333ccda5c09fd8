// The printer URI of an IPP connection.
import type { Connection } from '../../schemas/printer';
import { DEFAULT_IPP_RESOURCE, DEFAULT_PORTS } from '../printer-path';

/** The printer URI of a network IPP connection (`ipp://host:port/resource`, `ipps://` for ipps and https). */
export function ippUri(connection: Connection): string {
  const scheme = connection.protocol === 'ipps' || connection.protocol === 'https' ? 'ipps' : 'ipp';
  const host = connection.host?.includes(':') ? `[${connection.host}]` : connection.host;
  return `${scheme}://${host}:${connection.port ?? DEFAULT_PORTS[connection.protocol ?? 'ipp']}${connection.resourcePath ?? DEFAULT_IPP_RESOURCE}`;
}
