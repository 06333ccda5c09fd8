// What an ESC/POS receipt printer says of itself: real-time status (DLE EOT 1..4) over any Transport that reads back.
import type { LiveStatus } from '../../schemas/printer';
import type { Transport } from '../../transports/transport';
import { isStatusByte, realtimeStatusCommand, statusReasonsOf, type RealtimeStatus } from './realtime-status';

const STATUS_BYTES: Array<[1 | 2 | 3 | 4, keyof RealtimeStatus]> = [
  [1, 'printer'],
  [2, 'offline'],
  [3, 'error'],
  [4, 'paper'],
];

/**
 * Live status from DLE EOT 1..4 (each `timeoutMs` at most); `unknown` when the printer does not answer the first.
 * Reasons ending in `-error` make it `error`; a paper-low warning alone leaves it `online`.
 */
export async function escposLiveStatus(transport: Transport, timeoutMs: number): Promise<LiveStatus> {
  const status: RealtimeStatus = {};
  for (const [n, key] of STATUS_BYTES) {
    const reply = await transport.query(realtimeStatusCommand(n), (r) => r.length > 0, timeoutMs).catch(() => null);
    // the last byte: a reply that came late to an earlier question is ahead of it
    const byte = reply?.at(-1);
    if (byte === undefined || !isStatusByte(byte)) {
      if (n === 1) return { status: 'unknown', statusReasons: [] };
      continue;
    }
    status[key] = byte;
  }
  const reasons = statusReasonsOf(status);
  return { status: reasons.some((r) => r.endsWith('-error')) ? 'error' : 'online', statusReasons: reasons };
}
