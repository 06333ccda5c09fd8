// TSPL's `<ESC>!?` status query and its one-byte answer, decoded into the project's readiness and IPP state reasons.
import type { PreflightOutcome, Readiness } from '../../schemas/readiness';
import { READINESS_ERRORS, statusReasonsFromReadiness } from '../readiness';

/** `<ESC>!?` (1B 21 3F): asks for the one status byte; printers answer it at any time, even in an error. */
export const TSPL_STATUS_QUERY = Buffer.from([0x1b, 0x21, 0x3f]);
/** `<ESC>!R` (1B 21 52): resets the printer, dropping a half-received command (a BITMAP cut short). */
export const TSPL_RESET_COMMAND = Buffer.from([0x1b, 0x21, 0x52]);

/** The bits of the status byte (TSPL/TSPL2 manual, `<ESC>!?`); 0x00 is ready. */
export const TSPL_STATUS_BITS = {
  headOpen: 0x01,
  paperJam: 0x02,
  paperOut: 0x04,
  ribbonOut: 0x08,
  paused: 0x10,
  printing: 0x20,
  coverOpen: 0x40,
  overTemperature: 0x80,
} as const;

/** One flag per bit of the status byte, plus the byte itself. */
export type TsplStatus = Record<keyof typeof TSPL_STATUS_BITS, boolean> & { byte: number };

/** Conditions the readiness shape has no flag for, one `errors` string each (head, paper, ribbon, pause use decisions.md's). */
export const TSPL_EXTRA_ERRORS = {
  paperJam: 'Paper jam (open the head, clear the labels and close it)',
  coverOpen: 'Printer cover is open (close the cover)',
  overTemperature: 'Printer is too hot or too cold (let it return to room temperature)',
} as const;

/** True once a reply holds the status byte. */
export function isTsplStatusComplete(reply: Uint8Array): boolean {
  return reply.length >= 1;
}

/** Decodes a status byte (0..255; only the low 8 bits are read). */
export function decodeTsplStatus(byte: number): TsplStatus {
  const b = byte & 0xff;
  const bit = (mask: number) => (b & mask) !== 0;
  const B = TSPL_STATUS_BITS;
  return {
    byte: b,
    headOpen: bit(B.headOpen), paperJam: bit(B.paperJam), paperOut: bit(B.paperOut), ribbonOut: bit(B.ribbonOut),
    paused: bit(B.paused), printing: bit(B.printing), coverOpen: bit(B.coverOpen), overTemperature: bit(B.overTemperature),
  };
}

/** Readiness from a status byte: printing alone is ready (the printer takes more jobs); every other bit is an error. */
export function readinessFromTsplStatus(s: TsplStatus): Readiness {
  const errors = [
    ...(s.paused ? [READINESS_ERRORS.paused] : []),
    ...(s.paperOut ? [READINESS_ERRORS.paperOut] : []),
    ...(s.headOpen ? [READINESS_ERRORS.headOpen] : []),
    ...(s.ribbonOut ? [READINESS_ERRORS.ribbonOut] : []),
    ...(s.paperJam ? [TSPL_EXTRA_ERRORS.paperJam] : []),
    ...(s.coverOpen ? [TSPL_EXTRA_ERRORS.coverOpen] : []),
    ...(s.overTemperature ? [TSPL_EXTRA_ERRORS.overTemperature] : []),
  ];
  return { ready: errors.length === 0, paperOut: s.paperOut, paused: s.paused, headOpen: s.headOpen, ribbonOut: s.ribbonOut, errors };
}

/** IPP printer-state-reasons of a status byte: the readiness ones, plus jam, cover and temperature keywords. */
export function statusReasonsFromTsplStatus(s: TsplStatus): string[] {
  const reasons = statusReasonsFromReadiness(readinessFromTsplStatus(s));
  if (s.paperJam) reasons.push('media-jam-error');
  if (s.coverOpen && !reasons.includes('cover-open-error')) reasons.push('cover-open-error');
  if (s.overTemperature) reasons.push('other-error');
  return reasons;
}

/** Pre-flight from what the printer answered to `<ESC>!?`: nothing is silent (the job is attempted), else its last (newest) byte. */
export function preflightFromTsplReply(reply: Uint8Array): PreflightOutcome {
  if (!isTsplStatusComplete(reply)) return { kind: 'silent' };
  const readiness = readinessFromTsplStatus(decodeTsplStatus(reply[reply.length - 1]));
  return readiness.ready ? { kind: 'ready' } : { kind: 'not-ready', readiness };
}
