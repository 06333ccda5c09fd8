// Live status from one status query over any Transport, for every language whose printer answers one: the shared shape.
import type { LiveStatus } from '../schemas/printer';
import type { Transport } from '../transports/transport';

/** What a reply says: ready or not, with IPP printer-state-reasons; null when it cannot be read. */
export type DecodedStatus = { ready: boolean; reasons: string[] } | null;

/** One status query: the bytes sent, when the reply is whole, and what a reply means. */
export interface StatusQuery {
  command: Uint8Array;
  complete: (reply: Buffer) => boolean;
  decode: (reply: Buffer) => DecodedStatus;
}

/** Asks `query` within `timeoutMs`: online, error with reasons, `unknown` when silent or unreadable, `offline` when unreachable. */
export async function liveStatusOf(transport: Transport, query: StatusQuery, timeoutMs: number): Promise<LiveStatus> {
  let reply: Buffer | null;
  try {
    reply = await transport.query(query.command, query.complete, timeoutMs);
  } catch {
    return { status: 'offline', statusReasons: [] };
  }
  const decoded = reply ? query.decode(reply) : null;
  if (!decoded) return { status: 'unknown', statusReasons: [] };
  return decoded.ready ? { status: 'online', statusReasons: [] } : { status: 'error', statusReasons: decoded.reasons };
}
