// ESC/POS real-time status (DLE EOT n, `10 04 0n`), as the Epson ESC/POS command reference defines its four bytes,
// and the IPP printer-state-reasons they mean.

/** The command asking real-time status `n` (1 printer, 2 offline cause, 3 error cause, 4 roll paper sensor). */
export function realtimeStatusCommand(n: 1 | 2 | 3 | 4): Buffer {
  return Buffer.from([0x10, 0x04, n]);
}

/** Every status byte has bit 1 and bit 4 on, bit 0 and bit 7 off; anything else is not a status byte. */
export function isStatusByte(byte: number): boolean {
  return (byte & 0x93) === 0x12;
}

/** The four status bytes, each undefined when the printer did not answer that one. */
export interface RealtimeStatus {
  printer?: number;
  offline?: number;
  error?: number;
  paper?: number;
}

/**
 * IPP printer-state-reasons from the four bytes: n=1 bit 3 offline; n=2 bit 2 cover open, bit 5 stopped at paper end;
 * n=3 bit 3 autocutter error, bits 5 and 6 unrecoverable and auto-recoverable errors; n=4 bits 2-3 roll near end,
 * bits 5-6 roll paper end.
 */
export function statusReasonsOf(status: RealtimeStatus): string[] {
  const reasons = new Set<string>();
  const on = (byte: number | undefined, mask: number) => byte !== undefined && (byte & mask) !== 0;
  if (on(status.paper, 0x60) || on(status.offline, 0x20)) reasons.add('media-empty-error');
  else if (on(status.paper, 0x0c)) reasons.add('media-low-warning');
  if (on(status.offline, 0x04)) reasons.add('cover-open-error');
  if (on(status.error, 0x08)) reasons.add('cutter-error');
  if (on(status.error, 0x60)) reasons.add('other-error');
  if (on(status.printer, 0x08) && reasons.size === 0) reasons.add('offline-report');
  return [...reasons];
}
