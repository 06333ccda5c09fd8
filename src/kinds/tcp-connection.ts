// What the TCP kinds share: which connections are raw TCP (port 9100) and their host and port.
import type { Connection } from '../schemas/printer';
import { DEFAULT_PORTS } from './printer-path';

/** True for a network printer reached over raw TCP. */
export function isRawTcp(connection: Connection): boolean {
  return connection.type === 'network' && connection.protocol === 'tcp';
}

/** Host and port of a raw TCP connection (port 9100 unless given). */
export function tcpAddress(connection: Connection): { host: string; port: number } {
  return { host: connection.host ?? '', port: connection.port ?? DEFAULT_PORTS.tcp };
}
