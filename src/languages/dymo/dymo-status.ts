// The LabelWriter's answer to ESC A, decoded: the 450 family's one status byte and the 550 series' 32-byte reply.
import type { PreflightOutcome, Readiness } from '../../schemas/readiness';
import { readinessOf, statusReasonsFromReadiness } from '../readiness';

/** Bits of the 450 family's status byte (LabelWriter 400/450 Technical Reference, ESC A). */
export const DYMO_450_BITS = { ready: 0x01, topOfForm: 0x02, paperOut: 0x20, paperJam: 0x40, error: 0x80 } as const;

/** Length of the 550 series' status reply. */
export const DYMO_550_REPLY_LENGTH = 32;

/** Byte 0 of a 550 reply: the print engine's state. */
export const DYMO_550_ENGINE = { idle: 0, printing: 1, error: 2, cancel: 3, busy: 4, noLock: 5 } as const;

/** Byte 10 of a 550 reply: the roll bay's state. */
export const DYMO_550_BAY = { unknown: 0, open: 1, noMedia: 2, notInserted: 3, presentUnknown: 4, empty: 5, criticallyLow: 6, low: 7, ok: 8, jammed: 9, notDymo: 10 } as const;

/** What either model's reply says, in one shape. */
export interface DymoStatus {
  model: '450' | '550';
  paperOut: boolean;
  paperJam: boolean;
  /** The cover (roll bay) is open (550). */
  coverOpen: boolean;
  /** The roll has no DYMO NFC tag, or one the printer rejects (550). */
  notDymoRoll: boolean;
  /** The roll sits badly (550). */
  rollMisplaced: boolean;
  /** Printing or busy: the printer takes the job once it is done. */
  busy: boolean;
  /** Any other error (450 bit 7 alone, the 550's engine error or an overheated head). */
  otherError: boolean;
  /** Labels left on the roll (550), else null. */
  labelsLeft: number | null;
  /** The roll's SKU from its NFC tag (550), else null. */
  sku: string | null;
}

/** Conditions the readiness shape has no flag for, one `errors` text each. */
export const DYMO_EXTRA_ERRORS = {
  paperJam: 'Labels are jammed (open the cover, clear the labels and reload the roll)',
  coverOpen: 'Printer cover is open (close the cover)',
  notDymoRoll: 'The roll is not a DYMO roll (the LabelWriter 550 prints only on genuine DYMO labels; load one)',
  rollMisplaced: 'The label roll is not inserted properly (reload the roll)',
  otherError: 'Printer reports an error (turn it off and on again)',
} as const;

const NO_CONDITION = { paperOut: false, paperJam: false, coverOpen: false, notDymoRoll: false, rollMisplaced: false, busy: false, otherError: false, labelsLeft: null, sku: null };

/** True once `reply` is a whole answer: one byte (450) or 32 (550; USB bulk IN brings it in one transfer). */
export function isDymoStatusComplete(reply: Uint8Array): boolean {
  return reply.length === 1 || reply.length >= DYMO_550_REPLY_LENGTH;
}

/** The 450 family's status byte. */
export function decode450Status(byte: number): DymoStatus {
  const on = (mask: number) => (byte & mask) !== 0;
  const B = DYMO_450_BITS;
  return { ...NO_CONDITION, model: '450', paperOut: on(B.paperOut), paperJam: on(B.paperJam), otherError: on(B.error) && !on(B.paperOut) && !on(B.paperJam) };
}

/** The 550 series' 32-byte reply (engine byte 0, head byte 8, bay byte 10, SKU bytes 11..22, labels left bytes 27..28 LE). */
export function decode550Status(reply: Uint8Array): DymoStatus {
  const engine = reply[0];
  const bay = reply[10];
  const B = DYMO_550_BAY;
  const sku = Buffer.from(reply.subarray(11, 23)).toString('latin1').replace(/\0.*$/s, '').trim();
  return {
    model: '550',
    paperOut: bay === B.noMedia || bay === B.empty,
    paperJam: bay === B.jammed,
    coverOpen: bay === B.open,
    notDymoRoll: bay === B.notDymo,
    rollMisplaced: bay === B.notInserted,
    busy: engine === DYMO_550_ENGINE.printing || engine === DYMO_550_ENGINE.busy,
    otherError: engine === DYMO_550_ENGINE.error || reply[8] === 1,
    labelsLeft: reply[27] | (reply[28] << 8),
    sku: sku || null,
  };
}

/** Either model's reply by its length; null when it is neither one byte nor 32. */
export function decodeDymoStatus(reply: Uint8Array): DymoStatus | null {
  if (reply.length === 1) return decode450Status(reply[0]);
  if (reply.length >= DYMO_550_REPLY_LENGTH) return decode550Status(reply);
  return null;
}

/** Readiness: busy is ready (the printer takes the job after the one it prints); every condition is an error. */
export function readinessFromDymoStatus(s: DymoStatus): Readiness {
  const E = DYMO_EXTRA_ERRORS;
  const extra = [
    ...(s.paperJam ? [E.paperJam] : []),
    ...(s.coverOpen ? [E.coverOpen] : []),
    ...(s.notDymoRoll ? [E.notDymoRoll] : []),
    ...(s.rollMisplaced ? [E.rollMisplaced] : []),
    ...(s.otherError ? [E.otherError] : []),
  ];
  return readinessOf({ paperOut: s.paperOut, paused: false, headOpen: false, ribbonOut: false }, extra);
}

/** IPP printer-state-reasons: the readiness ones, then jam, cover, a roll that must be replaced, other errors. */
export function statusReasonsFromDymoStatus(s: DymoStatus): string[] {
  const reasons = statusReasonsFromReadiness(readinessFromDymoStatus(s));
  if (s.paperJam) reasons.push('media-jam-error');
  if (s.coverOpen) reasons.push('cover-open-error');
  if (s.notDymoRoll || s.rollMisplaced) reasons.push('media-needed-error');
  if (s.otherError) reasons.push('other-error');
  return reasons;
}

/** Pre-flight from a reply: unreadable or empty is silent (the job is attempted), else ready or not. */
export function preflightFromDymoReply(reply: Uint8Array): PreflightOutcome {
  const status = decodeDymoStatus(reply);
  if (!status) return { kind: 'silent' };
  const readiness = readinessFromDymoStatus(status);
  return readiness.ready ? { kind: 'ready' } : { kind: 'not-ready', readiness };
}
