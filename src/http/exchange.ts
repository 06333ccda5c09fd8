// One request and its answer on uWS: what was read of the request before its callback ended, and what it holds until answered.
import type { GateExit } from '../util/connection-gate';
import type { BodyStream } from './body-stream';
import type { HttpRequest, HttpResponse } from './uws';

/** Every API path starts with this. */
export const API_PREFIX = '/api/v1';

/** The request headers an exchange keeps (uWS's request object dies with the route callback). */
const READ_HEADERS = ['x-api-key', 'content-type', 'content-length', 'origin', 'idempotency-key', 'transfer-encoding'];
/** Those a GET or HEAD is answered with (its body, if any, is framed and dropped by uWS): the others read as empty. */
const BODILESS_HEADERS = ['x-api-key', 'origin'];
const NO_BODY_HEADERS: Readonly<Record<string, string>> = { 'content-type': '', 'content-length': '', 'idempotency-key': '', 'transfer-encoding': '' };

/** One request being answered. */
export interface Exchange {
  res: HttpResponse;
  done: boolean;
  aborted: boolean;
  /** Created on first use of `signal`: most requests never need one. */
  controller: AbortController | null;
  method: string;
  url: string;
  query: string;
  headers: Record<string, string>;
  address: string | null;
  /** Large-body bytes taken from the budget, given back when the answer is sent. */
  reserved: number;
  /** Close the connection after the answer: the request's framing cannot be trusted. */
  closeAfter: boolean;
  /** Gives back the exchange's place in a keyless door's gate (IPP), when it took one. */
  exit: GateExit | null;
  /** The body of a streamBody route, being received; null once the answer has taken it over. */
  stream: BodyStream | null;
}

/** An exchange for the request uWS just routed, with what it needs of `req` copied (call within the route callback). */
export function newExchange(res: HttpResponse, req: HttpRequest): Exchange {
  const method = req.getMethod();
  const bodiless = method === 'get' || method === 'head';
  const headers: Record<string, string> = bodiless ? { ...NO_BODY_HEADERS } : {};
  for (const name of bodiless ? BODILESS_HEADERS : READ_HEADERS) headers[name] = req.getHeader(name);
  return {
    res,
    done: false,
    aborted: false,
    controller: null,
    method,
    url: req.getUrl(),
    query: req.getQuery() ?? '',
    headers,
    address: null,
    reserved: 0,
    closeAfter: false,
    exit: null,
    stream: null,
  };
}

/** The client's address as text, read once (empty once the client has gone). */
export function remoteAddress(exchange: Exchange): string {
  if (exchange.address !== null) return exchange.address;
  if (exchange.aborted) return (exchange.address = '');
  exchange.address = Buffer.from(exchange.res.getRemoteAddressAsText()).toString();
  return exchange.address;
}

/** The envelope's `module` of a request path: the path below /api/v1 (`/` for the prefix alone), else the path. */
export function moduleOf(url: string): string {
  return url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url;
}
