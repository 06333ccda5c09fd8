// What a USB printer says about itself on its bulk IN endpoint, where it answers: `~HS` from a Zebra (pre-flight and
// status, the TCP path's texts), ESC/POS real-time status (DLE EOT 1..4) from a receipt printer.
import type { LiveStatus } from '../../schemas/printer';
import type { PreflightOutcome } from '../printer-driver';
import type { Transport } from '../../transports/transport';
import { isStatusByte, realtimeStatusCommand, statusReasonsOf, type RealtimeStatus } from '../../escpos/realtime-status';
import { readinessFromHostStatus, statusReasonsFromReadiness } from '../../zpl/zpl-readiness';
import { HOST_STATUS_COMMAND, isHostStatusComplete, parseHostStatus } from '../../zpl/zpl-status';
import { queryReadiness } from '../zpl-tcp/zpl-preflight';

/**
 * Seed 4.5.1 pre-flight over USB: one `~HS`; not ready is refused with the TCP path's texts. A printer that does not
 * answer within `timeoutMs` is send-only (no reset, no `~HQES`: `~JA` would cancel what it holds) and the job is attempted.
 */
export async function zplUsbPreflight(transport: Transport, timeoutMs: number): Promise<PreflightOutcome> {
  const readiness = await queryReadiness(transport, timeoutMs);
  if (!readiness) return { kind: 'silent' };
  return readiness.ready ? { kind: 'ready' } : { kind: 'not-ready', readiness };
}

/** Live status of a ZPL printer from one `~HS`; null when it does not answer (then port status tells what it can). */
export async function zplUsbStatus(transport: Transport, timeoutMs: number): Promise<LiveStatus | null> {
  const reply = await transport.query(HOST_STATUS_COMMAND, isHostStatusComplete, timeoutMs).catch(() => null);
  if (!reply) return null;
  try {
    const readiness = readinessFromHostStatus(parseHostStatus(reply));
    return readiness.ready ? { status: 'online', statusReasons: [] } : { status: 'error', statusReasons: statusReasonsFromReadiness(readiness) };
  } catch {
    return null;
  }
}

const STATUS_BYTES: Array<[1 | 2 | 3 | 4, keyof RealtimeStatus]> = [
  [1, 'printer'],
  [2, 'offline'],
  [3, 'error'],
  [4, 'paper'],
];

/**
 * Live status of an ESC/POS printer from DLE EOT 1..4 (each `timeoutMs` at most); null when it does not answer the
 * first. Reasons ending in `-error` make it `error`; a paper-low warning alone leaves it `online`.
 */
export async function escposUsbStatus(transport: Transport, timeoutMs: number): Promise<LiveStatus | null> {
  const status: RealtimeStatus = {};
  for (const [n, key] of STATUS_BYTES) {
    const reply = await transport.query(realtimeStatusCommand(n), (r) => r.length > 0, timeoutMs).catch(() => null);
    // the last byte: a reply that came late to an earlier question is ahead of it
    const byte = reply?.at(-1);
    if (byte === undefined || !isStatusByte(byte)) {
      if (n === 1) return null;
      continue;
    }
    status[key] = byte;
  }
  const reasons = statusReasonsOf(status);
  return { status: reasons.some((r) => r.endsWith('-error')) ? 'error' : 'online', statusReasons: reasons };
}
