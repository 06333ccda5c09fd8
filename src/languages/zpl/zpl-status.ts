// Pure parsers of Zebra status replies: `~HS` (three framed strings) and `~HQES` (error and warning bit fields).
import { ZplParseError } from '../../errors';

const STX = 0x02;
const ETX = 0x03;

/** The flags of a `~HS` reply (ZPL II guide, ~HS: string 1 fields b, c, f, h, j, k, l; string 2 fields o, p, t). */
export interface HostStatus {
  paperOut: boolean;
  paused: boolean;
  /** Label length in dots. */
  labelLength: number;
  formatsInBuffer: number;
  bufferFull: boolean;
  partialFormat: boolean;
  corruptRam: boolean;
  underTemperature: boolean;
  overTemperature: boolean;
  headOpen: boolean;
  ribbonOut: boolean;
  thermalTransfer: boolean;
  labelWaiting: boolean;
  labelsRemaining: number;
}

/** The decoded `~HQES` error flags that matter for readiness, plus the raw group-1 bits. */
export interface HostQueryStatus {
  hasErrors: boolean;
  mediaOut: boolean;
  ribbonOut: boolean;
  headOpen: boolean;
  /** Group-1 error bits, as the printer sent them. */
  errorBits: number;
}

/** The ~HS host status query, as bytes on the wire. */
export const HOST_STATUS_COMMAND = Buffer.from('~HS\r\n', 'latin1');
/** The ~HQES host query, asking for the printer's error and warning flags; sent when ~HS stays silent. */
export const HOST_QUERY_ERRORS_COMMAND = Buffer.from('~HQES\r\n', 'latin1');
/** Ends any half-sent format and resets the printer's parser (seed 4.5.1). */
export const RESET_COMMAND = Buffer.from('^XZ~JA\r\n', 'latin1');

/** The text inside each STX…ETX frame of `reply`, in order; an unterminated last frame is left out. */
function frames(reply: Uint8Array): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < reply.length; i += 1) {
    if (reply[i] === STX) start = i + 1;
    else if (reply[i] === ETX && start >= 0) {
      out.push(Buffer.from(reply.subarray(start, i)).toString('latin1'));
      start = -1;
    }
  }
  return out;
}

/** True once a `~HS` reply holds its three frames. */
export function isHostStatusComplete(reply: Uint8Array): boolean {
  return frames(reply).length >= 3;
}

/** Parses a `~HS` reply; throws ZplParseError when a frame or field is missing or not numeric. */
export function parseHostStatus(reply: Uint8Array | string): HostStatus {
  const bytes = typeof reply === 'string' ? Buffer.from(reply, 'latin1') : reply;
  const [one, two] = frames(bytes);
  if (one === undefined || two === undefined) throw new ZplParseError('~HS reply has fewer than 2 framed strings');
  const a = fields(one, 12, 'string 1');
  const b = fields(two, 11, 'string 2');
  return {
    paperOut: flag(a[1], 'b'),
    paused: flag(a[2], 'c'),
    labelLength: num(a[3], 'dddd'),
    formatsInBuffer: num(a[4], 'eee'),
    bufferFull: flag(a[5], 'f'),
    partialFormat: flag(a[7], 'h'),
    corruptRam: flag(a[9], 'j'),
    underTemperature: flag(a[10], 'k'),
    overTemperature: flag(a[11], 'l'),
    headOpen: flag(b[2], 'o'),
    ribbonOut: flag(b[3], 'p'),
    thermalTransfer: flag(b[4], 'q'),
    labelWaiting: flag(b[7], 't'),
    labelsRemaining: num(b[8], 'uuuuuuuu'),
  };
}

/** True once a `~HQES` reply holds its closing ETX after the ERRORS line. */
export function isHostQueryComplete(reply: Uint8Array): boolean {
  const text = Buffer.from(reply).toString('latin1');
  const errors = text.indexOf('ERRORS');
  return errors >= 0 && text.indexOf('\x03', errors) >= 0;
}

/** Parses a `~HQES` reply (`ERRORS: f gggggggg hhhhhhhh`); throws ZplParseError when the ERRORS line is absent or malformed. */
export function parseHostQueryStatus(reply: Uint8Array | string): HostQueryStatus {
  const text = typeof reply === 'string' ? reply : Buffer.from(reply).toString('latin1');
  const match = /ERRORS:\s*([01])\s+([0-9A-Fa-f]{8})\s+([0-9A-Fa-f]{8})/.exec(text);
  if (!match) throw new ZplParseError('~HQES reply has no well-formed ERRORS line');
  const bits = Number.parseInt(match[3], 16);
  return { hasErrors: match[1] === '1', mediaOut: (bits & 0x1) !== 0, ribbonOut: (bits & 0x2) !== 0, headOpen: (bits & 0x4) !== 0, errorBits: bits };
}

function fields(frame: string, count: number, name: string): string[] {
  const parts = frame.split(',').map((p) => p.trim());
  if (parts.length < count) throw new ZplParseError(`~HS ${name} has ${parts.length} fields, expected ${count}`);
  return parts;
}

function flag(value: string, name: string): boolean {
  if (value === '0') return false;
  if (value === '1') return true;
  throw new ZplParseError(`~HS field ${name} is "${value}", expected 0 or 1`);
}

function num(value: string, name: string): number {
  if (!/^\d{1,10}$/.test(value)) throw new ZplParseError(`~HS field ${name} is "${value}", expected digits`);
  return Number(value);
}
