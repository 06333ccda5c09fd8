// Pre-flight, live status and the network probe of an EPL2 printer over any Transport (TCP 9100, USB bulk): one `^ee`.
import type { LiveStatus } from '../../schemas/printer';
import type { PreflightOutcome } from '../../schemas/readiness';
import type { Transport } from '../../transports/transport';
import { liveStatusOf, type DecodedStatus } from '../live-status';
import { EPL2_STATUS_QUERY, isEpl2StatusComplete, parseEpl2Status, preflightFromEpl2Reply, readinessFromEpl2Codes, statusReasonsFromEpl2Codes } from './epl2-status';

/**
 * Seed 4.5.1 pre-flight: one `^ee` answered within `timeoutMs`; not ready is refused with its readiness. Silence, a
 * garbled answer or a connection that fails is `silent` and the job is attempted. There is no recovery step: EPL2's
 * reset (`^@`) restarts the printer and drops the labels it holds, so `recover` changes nothing.
 */
export async function epl2Preflight(transport: Transport, timeoutMs: number): Promise<PreflightOutcome> {
  const reply = await transport.query(EPL2_STATUS_QUERY, isEpl2StatusComplete, timeoutMs).catch(() => null);
  return reply ? preflightFromEpl2Reply(reply) : { kind: 'silent' };
}

/** Reads a `^ee` reply: readiness and IPP reasons; null when it holds no well-formed line. */
function decodeErrorReport(reply: Buffer): DecodedStatus {
  const codes = parseEpl2Status(reply);
  return codes ? { ready: readinessFromEpl2Codes(codes).ready, reasons: statusReasonsFromEpl2Codes(codes) } : null;
}

/** Live status from one `^ee`: online, error with IPP reasons, unknown when silent or garbled, offline when unreachable. */
export function epl2LiveStatus(transport: Transport, timeoutMs: number): Promise<LiveStatus> {
  return liveStatusOf(transport, { command: EPL2_STATUS_QUERY, complete: isEpl2StatusComplete, decode: decodeErrorReport }, timeoutMs);
}
