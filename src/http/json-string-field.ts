// Takes one large string member out of a JSON object's bytes without parsing it, so a 60 MiB `content` is never a
// JavaScript string (JSON.parse would hold the body, its text and the string at once).

/** A JSON object's bytes split in two: the object without the member's value (`""` in its place), and the value's raw bytes. */
export interface SplitField {
  rest: Buffer;
  /** The bytes between the quotes; they hold no escape (a value with one is not split). */
  value: Buffer;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Splits the top-level string member `name` out of `json`; null when absent, escaped, or not at the top level. */
export function splitStringField(json: Buffer, name: string): SplitField | null {
  const key = Buffer.from(`"${name}"`);
  let depth = 0;
  for (let i = 0; i < json.length; i += 1) {
    const c = json[i];
    if (c === QUOTE) {
      if (depth === 1 && json.compare(key, 0, key.length, i, i + key.length) === 0) {
        const value = valueAfterKey(json, i + key.length);
        if (value !== undefined) return value && { rest: Buffer.concat([json.subarray(0, value.start), json.subarray(value.end)]), value: json.subarray(value.start, value.end) };
      }
      const end = stringEnd(json, i);
      if (end < 0) return null;
      i = end;
    } else if (c === 0x7b || c === 0x5b) depth += 1;
    else if (c === 0x7d || c === 0x5d) depth -= 1;
  }
  return null;
}

/**
 * After a key at `from`: the span of its string value without the quotes, null when the value is a string with escapes
 * (not split), undefined when this was no key (a string value that looks like one).
 */
function valueAfterKey(json: Buffer, from: number): { start: number; end: number } | null | undefined {
  let i = skipSpace(json, from);
  if (json[i] !== 0x3a) return undefined;
  i = skipSpace(json, i + 1);
  if (json[i] !== QUOTE) return null;
  const close = json.indexOf(QUOTE, i + 1);
  if (close < 0) return null;
  // an escape or a control character (not allowed raw in JSON): left to JSON.parse, which decodes or refuses it
  for (let k = i + 1; k < close; k += 1) if (json[k] === BACKSLASH || json[k] < 0x20) return null;
  return { start: i + 1, end: close };
}

/** Index of the closing quote of the string opening at `open`, or -1. */
function stringEnd(json: Buffer, open: number): number {
  for (let i = open + 1; i < json.length; i += 1) {
    if (json[i] === BACKSLASH) i += 1;
    else if (json[i] === QUOTE) return i;
  }
  return -1;
}

function skipSpace(json: Buffer, from: number): number {
  let i = from;
  while (json[i] === 0x20 || json[i] === 0x09 || json[i] === 0x0a || json[i] === 0x0d) i += 1;
  return i;
}
