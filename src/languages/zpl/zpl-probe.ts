// Pre-flight, live status, unprinted formats and content probing of a ZPL printer over any Transport (TCP 9100, USB bulk).
import type { LiveStatus } from '../../schemas/printer';
import type { PreflightOutcome } from '../../schemas/readiness';
import type { Transport } from '../../transports/transport';
import { liveStatusOf, type DecodedStatus } from '../live-status';
import { statusReasonsFromReadiness } from '../readiness';
import { queryReadiness, zplPreflight } from './zpl-preflight';
import { unprintedFormats } from './zpl-formats';
import { readinessFromHostStatus } from './zpl-readiness';
import { HOST_STATUS_COMMAND, isHostStatusComplete, parseHostStatus } from './zpl-status';

/**
 * Seed 4.5.1 pre-flight. With `recover` a silent printer gets `^XZ~JA`, `~HS` again and `~HQES` (a network socket);
 * without, one `~HS` and silence means send-only (USB: `~JA` would cancel what it holds); silence lets the job be attempted.
 */
export async function zplPreflightOver(transport: Transport, timeoutMs: number, recover: boolean): Promise<PreflightOutcome> {
  if (recover) return zplPreflight(transport, timeoutMs);
  const readiness = await queryReadiness(transport, timeoutMs);
  if (!readiness) return { kind: 'silent' };
  return readiness.ready ? { kind: 'ready' } : { kind: 'not-ready', readiness };
}

/** Reads a `~HS` reply: its readiness and IPP reasons; null when garbled. */
function decodeHostStatus(reply: Buffer): DecodedStatus {
  try {
    const readiness = readinessFromHostStatus(parseHostStatus(reply));
    return { ready: readiness.ready, reasons: statusReasonsFromReadiness(readiness) };
  } catch {
    return null;
  }
}

/** Live status from one `~HS`: online, error with reasons, offline when unreachable, unknown when silent or garbled. */
export function zplLiveStatus(transport: Transport, timeoutMs: number): Promise<LiveStatus> {
  return liveStatusOf(transport, { command: HOST_STATUS_COMMAND, complete: isHostStatusComplete, decode: decodeHostStatus }, timeoutMs);
}

/** Formats the printer holds but has not printed, from one `~HS`; null when it is silent, garbled or unreachable. */
export async function zplUnprinted(transport: Transport, timeoutMs: number): Promise<number | null> {
  try {
    const reply = await transport.query(HOST_STATUS_COMMAND, isHostStatusComplete, timeoutMs);
    return reply ? unprintedFormats(parseHostStatus(reply)) : null;
  } catch {
    return null;
  }
}

/** decisions.md: true when the printer answers `~HS` within `timeoutMs` (it speaks ZPL). */
export async function answersHostStatus(transport: Transport, timeoutMs: number): Promise<boolean> {
  return (await queryReadiness(transport, timeoutMs)) !== null;
}
