// Pre-flight and live status of a LabelWriter over any Transport (USB bulk): ESC A, its reply decoded.
import type { LiveStatus } from '../../schemas/printer';
import type { PreflightOutcome } from '../../schemas/readiness';
import type { Transport } from '../../transports/transport';
import { liveStatusOf, type DecodedStatus } from '../live-status';
import { RECOVERY_FLUSH, STATUS_REQUEST } from './dymo-commands';
import { decodeDymoStatus, isDymoStatusComplete, preflightFromDymoReply, readinessFromDymoStatus, statusReasonsFromDymoStatus } from './dymo-status';

/** One query, null when silent or when the connection fails. */
function ask(transport: Transport, command: Uint8Array, timeoutMs: number): Promise<Buffer | null> {
  return transport.query(command, isDymoStatusComplete, timeoutMs).catch(() => null);
}

/**
 * Seed 4.5.1 pre-flight: ESC A within `timeoutMs`. With `recover`, a silent printer gets a run of ESC bytes (ending a
 * raster line a cancelled job left half sent, which is what keeps the 450 from answering) and ESC A again. No ESC @:
 * on the 550 it restarts the print engine. Silence lets the job be attempted.
 */
export async function dymoPreflight(transport: Transport, timeoutMs: number, recover: boolean): Promise<PreflightOutcome> {
  let reply = await ask(transport, STATUS_REQUEST, timeoutMs);
  if (!reply && recover) reply = await ask(transport, RECOVERY_FLUSH, timeoutMs);
  return reply ? preflightFromDymoReply(reply) : { kind: 'silent' };
}

/** Readiness and IPP reasons of a reply; null when it is neither model's. */
function decode(reply: Buffer): DecodedStatus {
  const status = decodeDymoStatus(reply);
  return status ? { ready: readinessFromDymoStatus(status).ready, reasons: statusReasonsFromDymoStatus(status) } : null;
}

/** Live status from one ESC A: online (busy included), error with IPP reasons, unknown when silent, offline when unreachable. */
export function dymoLiveStatus(transport: Transport, timeoutMs: number): Promise<LiveStatus> {
  return liveStatusOf(transport, { command: STATUS_REQUEST, complete: isDymoStatusComplete, decode }, timeoutMs);
}
