// The request's Content-Length as uWS leaves it to us: several fields that disagree, or one that is no number, are refused.
import { AppError } from '../errors';
import type { Exchange } from './exchange';
import type { HttpRequest } from './uws';

/**
 * RFC 9112 section 6.3: Content-Length fields that disagree make the framing unknowable, so the answer is 400 and the
 * connection closes (uWS frames by the first one and would read the rest as another request). Equal repeats pass.
 */
export function refuseAmbiguousLength(req: HttpRequest, exchange: Exchange): void {
  let lengths = 0;
  let differ = false;
  req.forEach((name, value) => {
    if (name !== 'content-length') return;
    lengths += 1;
    if (value !== exchange.headers['content-length']) differ = true;
  });
  if (lengths < 2 || !differ) return;
  exchange.closeAfter = true;
  throw new AppError('INVALID_REQUEST', 'several Content-Length header fields with different values');
}

/** The Content-Length as a number, null when absent; a value that is not 1*DIGIT (RFC 9110 8.6) is a 400 closing the connection. */
export function declaredLength(exchange: Exchange): number | null {
  const text = exchange.headers['content-length'];
  if (!text) return null;
  if (/^[0-9]+$/.test(text)) return Number(text);
  exchange.closeAfter = true;
  throw new AppError('INVALID_REQUEST', 'Content-Length must be a decimal number of bytes');
}
