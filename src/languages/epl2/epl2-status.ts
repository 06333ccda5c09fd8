// EPL2's `^ee` error report: the query, when its answer is whole, its two-digit codes, and what they mean for readiness.
import type { PreflightOutcome, Readiness } from '../../schemas/readiness';
import { READINESS_ERRORS, statusReasonsFromReadiness } from '../readiness';

/** `^ee` and a line end: EPL2's immediate error report; the printer answers `NN<CR><LF>` (or `NN,MM,…<CR><LF>`). */
export const EPL2_STATUS_QUERY = Buffer.from('^ee\r\n', 'latin1');

/**
 * The error/status codes of the EPL2 programming guides (980352-001, 14245L-003), by number. `blocks`: the printer
 * cannot print until someone acts. The data errors (01–06, 08–10) report a past command, not the printer: it prints on.
 * 81 is listed as Intermec ESim (an EPL2 dialect) reports it; codes outside the table are taken as blocking errors.
 */
export const EPL2_ERROR_CODES: Readonly<Record<number, { meaning: string; blocks: boolean }>> = {
  0: { meaning: 'No error', blocks: false },
  1: { meaning: 'Syntax error', blocks: false },
  2: { meaning: 'Object exceeded label border', blocks: false },
  3: { meaning: 'Bar code data length error', blocks: false },
  4: { meaning: 'Insufficient memory to store data', blocks: false },
  5: { meaning: 'Memory configuration error', blocks: false },
  6: { meaning: 'RS-232 interface error', blocks: false },
  7: { meaning: 'Paper or ribbon empty', blocks: true },
  8: { meaning: 'Duplicate name: form, graphic or soft font', blocks: false },
  9: { meaning: 'Name not found: form, graphic or soft font', blocks: false },
  10: { meaning: 'Not in data entry mode (form)', blocks: false },
  11: { meaning: 'Print head open', blocks: true },
  81: { meaning: 'Cutter jammed or not installed', blocks: true },
};

/** The codes that stop printing, by name. */
export const EPL2_CODES = { paperOrRibbonOut: 7, headOpen: 11, cutterJam: 81 } as const;

/** Error texts of conditions the shared readiness texts do not word for EPL2. */
export const EPL2_ERRORS = {
  paperOrRibbonOut: 'Printer is out of labels or ribbon (load labels or a ribbon and close the head)',
  cutterJam: 'Cutter is jammed or missing (clear the cutter)',
} as const;

/** XON and XOFF, which EPL2 printers may send unasked on the same channel (eR mode 0); never part of a code. */
const FLOW_CONTROL = /[\x11\x13]/g;
/** One `^ee` answer line: two-digit codes separated by commas. */
const CODE_LINE = /^\d{2}(,\d{2})*$/;

/** The lines of `reply`, flow-control bytes dropped, each without its CR; the last element is the unfinished tail. */
function lines(reply: Uint8Array): string[] {
  return Buffer.from(reply).toString('latin1').replace(FLOW_CONTROL, '').split('\n').map((line) => line.replace(/\r$/, '').trim());
}

/** True once `reply` holds a whole line (a line feed), well-formed or not. */
export function isEpl2StatusComplete(reply: Uint8Array): boolean {
  return reply.includes(0x0a);
}

/** The codes of the last whole well-formed line of `reply` (`07,11` → [7, 11]); null when there is none. */
export function parseEpl2Status(reply: Uint8Array): number[] | null {
  const whole = lines(reply).slice(0, -1).filter((line) => CODE_LINE.test(line));
  const last = whole.at(-1);
  return last === undefined ? null : last.split(',').map(Number);
}

/** True for a code that stops printing: a blocking one of the table, or any code the table does not know. */
function blocks(code: number): boolean {
  return EPL2_ERROR_CODES[code]?.blocks ?? true;
}

/** The error text of a blocking code: the shared texts where they fit, the table's meaning otherwise. */
function errorText(code: number): string {
  if (code === EPL2_CODES.paperOrRibbonOut) return EPL2_ERRORS.paperOrRibbonOut;
  if (code === EPL2_CODES.headOpen) return READINESS_ERRORS.headOpen;
  if (code === EPL2_CODES.cutterJam) return EPL2_ERRORS.cutterJam;
  return `Printer reports EPL2 error ${String(code).padStart(2, '0')}`;
}

/** Readiness from `^ee` codes: 07 is out of labels or ribbon (paperOut), 11 head open, 81 the cutter, unknown codes errors. */
export function readinessFromEpl2Codes(codes: readonly number[]): Readiness {
  const errors = [...new Set(codes)].filter(blocks).map(errorText);
  const paperOut = codes.includes(EPL2_CODES.paperOrRibbonOut);
  const headOpen = codes.includes(EPL2_CODES.headOpen);
  return { ready: errors.length === 0, paperOut, paused: false, headOpen, ribbonOut: false, errors };
}

/** IPP printer-state-reasons of `^ee` codes: media-empty-error (07), cover-open-error (11), other-error (cutter, unknown). */
export function statusReasonsFromEpl2Codes(codes: readonly number[]): string[] {
  const reasons = statusReasonsFromReadiness(readinessFromEpl2Codes(codes));
  const other = codes.some((code) => code === EPL2_CODES.cutterJam || EPL2_ERROR_CODES[code] === undefined);
  return other ? [...reasons, 'other-error'] : reasons;
}

/** Pre-flight from a `^ee` reply: silent when it holds no well-formed line (the job is attempted), else ready or not. */
export function preflightFromEpl2Reply(reply: Uint8Array): PreflightOutcome {
  const codes = parseEpl2Status(reply);
  if (!codes) return { kind: 'silent' };
  const readiness = readinessFromEpl2Codes(codes);
  return readiness.ready ? { kind: 'ready' } : { kind: 'not-ready', readiness };
}
