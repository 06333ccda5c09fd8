// TCP printer glue: the transport, ZPL pre-flight and status over it, raw reachability, and content probing.
import { TcpTransport } from '../../transports/tcp-transport';
import type { Transport } from '../../transports/transport';
import { queryReadiness, zplPreflight } from './zpl-preflight';
import { readinessFromHostStatus, statusReasonsFromReadiness } from '../../zpl/zpl-readiness';
import { HOST_STATUS_COMMAND, isHostStatusComplete, parseHostStatus } from '../../zpl/zpl-status';
import { unprintedFormats } from '../../zpl/zpl-formats';
import type { LiveStatus } from '../../schemas/printer';
import type { PreflightOutcome } from '../printer-driver';
import type { TransportTimeouts } from '../../transports/transport';
import { probeTcp } from '../../transports/tcp-probe';

/** A TCP transport with the configured limits; the close wait equals the idle limit. */
export function tcpTransport(host: string, port: number, timeouts: TransportTimeouts): Transport {
  return new TcpTransport({ host, port, connectTimeoutMs: timeouts.connectMs, idleTimeoutMs: timeouts.idleMs, closeWaitMs: timeouts.idleMs });
}

/** Seed 4.5.1 pre-flight of a network ZPL printer. */
export function zplTcpPreflight(transport: Transport, timeouts: TransportTimeouts): Promise<PreflightOutcome> {
  return zplPreflight(transport, timeouts.queryMs);
}

/** Live status of a ZPL printer from one `~HS`: online, error with reasons, offline when unreachable, unknown when silent. */
export async function zplTcpStatus(transport: Transport, timeouts: TransportTimeouts): Promise<LiveStatus> {
  let reply: Buffer | null;
  try {
    reply = await transport.query(HOST_STATUS_COMMAND, isHostStatusComplete, Math.min(timeouts.queryMs, 900));
  } catch {
    return { status: 'offline', statusReasons: [] };
  }
  if (!reply) return { status: 'unknown', statusReasons: [] };
  try {
    const readiness = readinessFromHostStatus(parseHostStatus(reply));
    return readiness.ready ? { status: 'online', statusReasons: [] } : { status: 'error', statusReasons: statusReasonsFromReadiness(readiness) };
  } catch {
    return { status: 'unknown', statusReasons: [] };
  }
}

/** Formats a ZPL printer holds but has not printed, from one `~HS`; null when it is silent, garbled or unreachable. */
export async function zplTcpUnprinted(transport: Transport, timeouts: TransportTimeouts): Promise<number | null> {
  try {
    const reply = await transport.query(HOST_STATUS_COMMAND, isHostStatusComplete, Math.min(timeouts.queryMs, 900));
    return reply ? unprintedFormats(parseHostStatus(reply)) : null;
  } catch {
    return null;
  }
}

/** Live status of a raw TCP printer: online when it accepts a connection. */
export async function rawTcpStatus(host: string, port: number, timeouts: TransportTimeouts): Promise<LiveStatus> {
  return (await probeTcp(host, port, Math.min(timeouts.connectMs, 900))) ? { status: 'online', statusReasons: [] } : { status: 'offline', statusReasons: [] };
}

/** decisions.md: a TCP printer that answers `~HS` is `zpl`, otherwise `raw`. */
export async function probeZplContent(host: string, port: number, timeouts: TransportTimeouts): Promise<'zpl' | 'raw'> {
  const readiness = await queryReadiness(tcpTransport(host, port, timeouts), timeouts.queryMs);
  return readiness ? 'zpl' : 'raw';
}
