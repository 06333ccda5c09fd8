// A raw TCP (port 9100) connection: which connections are one, their host and port, their path and URI forms.
import { AppError } from '../../errors';
import type { Connection } from '../../schemas/printer';
import { hostProblem } from '../host-problem';
import { rawSocketPath, uriOf } from '../printer-path';

/** The port of a raw TCP printer given without one. */
export const TCP_DEFAULT_PORT = 9100;

/** True for a network printer reached over raw TCP. */
export function isRawTcp(connection: Connection): boolean {
  return connection.type === 'network' && connection.protocol === 'tcp';
}

/** Host and port of a raw TCP connection (port 9100 unless given). */
export function tcpAddress(connection: Connection): { host: string; port: number } {
  return { host: connection.host ?? '', port: connection.port ?? TCP_DEFAULT_PORT };
}

/** `tcp_<host>_<port>` of a raw TCP connection. */
export function tcpPath(connection: Connection): string {
  const { host, port } = tcpAddress(connection);
  return rawSocketPath(host, port);
}

/** The path a `tcp://` or `socket://` URI names, or null for any other value. */
export function tcpPathFromUri(value: string): string | null {
  const url = uriOf(value, ['tcp', 'socket']);
  return url ? rawSocketPath(url.hostname.replace(/^\[|\]$/g, ''), url.port ? Number(url.port) : TCP_DEFAULT_PORT) : null;
}

/** A manual raw TCP connection checked (a usable host) and completed (its port); throws AppError INVALID_REQUEST. */
export function locateTcp(connection: Connection): Connection {
  const problem = hostProblem(connection.host ?? '');
  if (problem) throw new AppError('INVALID_REQUEST', `connection.host ${problem}`);
  return { ...connection, port: connection.port ?? TCP_DEFAULT_PORT };
}
