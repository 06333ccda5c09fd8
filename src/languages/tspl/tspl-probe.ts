// Pre-flight and live status of a TSPL printer over any Transport (TCP 9100, USB bulk): one `<ESC>!?`, its byte decoded.
import type { LiveStatus } from '../../schemas/printer';
import type { PreflightOutcome } from '../../schemas/readiness';
import type { Transport } from '../../transports/transport';
import { liveStatusOf, type DecodedStatus } from '../live-status';
import { decodeTsplStatus, isTsplStatusComplete, preflightFromTsplReply, readinessFromTsplStatus, statusReasonsFromTsplStatus, TSPL_STATUS_QUERY } from './tspl-status';

/**
 * Seed 4.5.1 pre-flight: one `<ESC>!?` answered within `timeoutMs`; not ready is refused with decisions.md's texts.
 * Silence, or a connection that fails, is `silent` and the job is attempted (ordinary error handling reports failures).
 * No reset is sent: TSPL's `<ESC>!R` restarts the printer and would drop labels it still holds.
 */
export async function tsplPreflight(transport: Transport, timeoutMs: number): Promise<PreflightOutcome> {
  const reply = await transport.query(TSPL_STATUS_QUERY, isTsplStatusComplete, timeoutMs).catch(() => null);
  return reply ? preflightFromTsplReply(reply) : { kind: 'silent' };
}

/** Reads an `<ESC>!?` reply (its last, newest byte): readiness and IPP reasons; null when empty. */
function decodeStatusByte(reply: Buffer): DecodedStatus {
  if (reply.length === 0) return null;
  const status = decodeTsplStatus(reply[reply.length - 1]);
  return { ready: readinessFromTsplStatus(status).ready, reasons: statusReasonsFromTsplStatus(status) };
}

/** Live status from one `<ESC>!?`: online (printing included), error with IPP reasons, unknown when silent, offline when unreachable. */
export function tsplLiveStatus(transport: Transport, timeoutMs: number): Promise<LiveStatus> {
  return liveStatusOf(transport, { command: TSPL_STATUS_QUERY, complete: isTsplStatusComplete, decode: decodeStatusByte }, timeoutMs);
}
