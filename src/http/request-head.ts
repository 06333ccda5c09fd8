// The first request head of a connection judged before uWS 20.30 sees it: the heads that build holds silently (RFC 9112
// wants an answer or a 400) are refused, HTTP/1.0 and absolute-form are rewritten into what it answers.

import type { ErrorCode } from '../errors';

/** The catalogue codes a refused head is answered with (400, 431, 505). */
export type HeadRefusal = Extract<ErrorCode, 'INVALID_REQUEST' | 'HEADERS_TOO_LARGE' | 'HTTP_VERSION_NOT_SUPPORTED'>;

/** What to do with a head: pass it on (rewritten or not), or answer `code` with `reason` and close. */
export type HeadVerdict = { pass: Buffer } | { code: HeadRefusal; reason: string; target: string };

const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) (\S+) HTTP\/(\d)\.(\d)$/;
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
/** Control bytes other than HTAB, which RFC 9110 section 5.5 keeps out of field values. */
const CONTROL = /[\x00-\x08\x0a-\x1f\x7f]/;
/** Header fields uWS 20.30 takes in one head: with more it answers nothing (47 were served, 49 held). */
export const MAX_FIELDS = 47;

/** The end of the head in `bytes` (the index after its empty line), or -1 while it is incomplete. */
export function headEnd(bytes: Buffer): number {
  const crlf = bytes.indexOf('\r\n\r\n');
  const lf = bytes.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf + 2 <= lf)) return crlf + 4;
  return lf >= 0 ? lf + 2 : -1;
}

/** Judges one complete head (request line, fields, empty line; latin1 bytes) as RFC 9112 sections 2.2, 3 and 5 say. */
export function judgeHead(head: Buffer): HeadVerdict {
  const text = head.toString('latin1');
  const refuse = (reason: string, code: HeadRefusal = 'INVALID_REQUEST'): HeadVerdict => ({ code, reason, target: requestTarget(text) });
  if (text.includes('\0')) return refuse('the request head holds a NUL byte');
  if (/(^|[^\r])\n/.test(text)) return refuse('a line of the request head ends in a bare LF; HTTP/1.1 lines end in CRLF');
  const lines = text.slice(0, -4).split('\r\n');
  const line = REQUEST_LINE.exec(lines[0]);
  if (!line) return refuse('the request line is not "method target HTTP/1.1"');
  const [, method, rawTarget, major, minor] = line;
  if (major !== '1') return refuse(`HTTP/${major}.${minor} is not supported; send HTTP/1.1`, 'HTTP_VERSION_NOT_SUPPORTED');
  const fields = lines.slice(1);
  if (fields.length > MAX_FIELDS) return refuse(`the request has ${fields.length} header fields; at most ${MAX_FIELDS} are taken`, 'HEADERS_TOO_LARGE');
  for (const field of fields) {
    if (field.startsWith(' ') || field.startsWith('\t')) return refuse('a header field is folded over lines (obs-fold)');
    const colon = field.indexOf(':');
    if (colon <= 0 || !FIELD_NAME.test(field.slice(0, colon))) return refuse(`"${field.slice(0, 40)}" is not a header field "name: value" (no space before the colon)`);
    if (CONTROL.test(field.slice(colon + 1))) return refuse(`the value of header field ${field.slice(0, colon)} holds a control byte`);
  }
  const origin = originForm(rawTarget);
  if (origin === null) return refuse('the request target is neither a path nor an absolute URL');
  if (minor === '1' && origin === rawTarget) return { pass: head };
  return { pass: Buffer.from(rewrite(method, origin, minor === '0', fields), 'latin1') };
}

/** The path of an absolute-form target (its authority dropped), the target itself in origin or asterisk form, else null. */
function originForm(target: string): string | null {
  if (target.startsWith('/') || target === '*') return target;
  const absolute = ABSOLUTE_FORM.exec(target);
  if (!absolute) return null;
  const rest = target.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** An HTTP/1.1 head for the same request; an HTTP/1.0 one gets a Host if it had none and `Connection: close` (1.0 has no keep-alive here). */
function rewrite(method: string, target: string, http10: boolean, fields: string[]): string {
  const kept = http10 ? fields.filter((f) => !/^connection:/i.test(f)) : fields;
  if (http10 && !kept.some((f) => /^host:/i.test(f))) kept.push('Host: localhost');
  if (http10) kept.push('Connection: close');
  return [`${method} ${target} HTTP/1.1`, ...kept, '', ''].join('\r\n');
}

/** The refusal of a head longer than `limit` bytes (complete or not), naming the target of its request line. */
export function overLongHead(bytes: Buffer, limit: number): HeadVerdict {
  const lineEnd = bytes.indexOf('\n');
  const text = bytes.subarray(0, lineEnd < 0 ? bytes.length : lineEnd).toString('latin1');
  return { code: 'HEADERS_TOO_LARGE', reason: `the request head is over ${limit} bytes`, target: requestTarget(text) };
}

function requestTarget(text: string): string {
  return text.split(/\r?\n/, 1)[0].split(' ')[1] ?? '';
}
