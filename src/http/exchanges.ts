// The exchanges in flight on every door: opened, answered in JSON or bytes, their body budget held and given back, drained at close.
import { errorAnswer } from './api-dispatch';
import { corsHeaders } from './cors';
import type { Envelope } from './envelope';
import { API_PREFIX, moduleOf, newExchange, type Exchange } from './exchange';
import type { Logger } from '../log';
import { AppError } from '../errors';
import { LARGE_BODY_BYTES, type MemoryBudget } from '../util/memory-budget';
import type { HttpRequest, HttpResponse } from './uws';

/** Live settings the server reads on each request. */
export interface HttpPolicy {
  maxBodyBytes(): number;
  allowedOrigins(): readonly string[];
}

/** What the exchanges need: the live policy, the device's memory budget, the log, and a call after a large body. */
export interface ExchangesDeps {
  policy: HttpPolicy;
  /** The device's one allowance of client bytes in memory, shared with the IPP documents and raw ports. */
  budget: MemoryBudget;
  logger: Logger;
  /** Called with its size when an exchange that held a large body (one counted in the body budget) has ended. */
  afterLargeBody?: (bytes: number) => void;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 304: 'Not Modified', 308: 'Permanent Redirect', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found',
  405: 'Method Not Allowed', 409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content',
  429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 505: 'HTTP Version Not Supported', 507: 'Insufficient Storage',
};

/** `<status> <reason phrase>` for every status the API answers with. */
export const STATUS_LINE: Record<number, string> = Object.fromEntries(Object.entries(STATUS_TEXT).map(([code, text]) => [code, `${code} ${text}`]));
/** No extra headers. */
export const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/** Where the IPP door answers: printers on the LAN print here, web pages never (no CORS, no cross-origin request). */
export const IPP_PREFIX = '/ipp/';

/** Opens, answers and counts the exchanges of every door; `drain` waits for the ones in flight. */
export class Exchanges {
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly deps: ExchangesDeps) {}

  /** The live policy (body limit, allowed origins). */
  get policy(): HttpPolicy {
    return this.deps.policy;
  }

  /**
   * Runs `body` on a new exchange for the request uWS just routed (within its callback), counted until answered or
   * aborted. One that `body` leaves unanswered is then watched for the client going away (uWS's onAborted, which only
   * an answer sent after the callback needs: most GETs are answered before it returns).
   */
  serve(res: HttpResponse, req: HttpRequest, body: (exchange: Exchange) => void): void {
    const exchange = newExchange(res, req);
    this.inFlight += 1;
    try {
      body(exchange);
    } finally {
      if (!exchange.done) this.watchAbort(exchange);
    }
  }

  private watchAbort(exchange: Exchange): void {
    exchange.res.onAborted(() => {
      exchange.aborted = true;
      exchange.controller?.abort();
      exchange.stream?.aborted();
      this.finish(exchange);
    });
  }

  /** Resolves once no exchange is in flight, or after `graceMs`. */
  async drain(graceMs: number): Promise<void> {
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Answers `err` as the error envelope (its status from the error catalogue), once the body has arrived; logs a bug. */
  fail(exchange: Exchange, err: unknown): void {
    if (this.waitForStream(exchange, () => this.fail(exchange, err))) return;
    const answer = errorAnswer(moduleOf(exchange.url), err);
    if (answer.unexpected) this.deps.logger.error('request failed', { url: exchange.url, error: err instanceof Error ? err.stack : String(err) });
    this.send(exchange, answer.status, answer.body, answer.headers);
  }

  /** Answers `body` as JSON. */
  send(exchange: Exchange, status: number, body: Envelope | unknown, headers: Record<string, string>): void {
    this.sendJson(exchange, status, JSON.stringify(body), headers);
  }

  /** Answers an already serialized JSON body, with the CORS headers; HEAD gets the length without the body. */
  sendJson(exchange: Exchange, status: number, json: string, headers: Record<string, string>): void {
    if (exchange.done) return;
    const cors = this.corsOf(exchange);
    exchange.res.cork(() => {
      exchange.res.writeStatus(STATUS_LINE[status] ?? String(status));
      exchange.res.writeHeader('Content-Type', 'application/json');
      for (const name in cors) exchange.res.writeHeader(name, cors[name]);
      for (const name in headers) exchange.res.writeHeader(name, headers[name]);
      // HEAD: the length the GET body would have
      if (exchange.method === 'head') exchange.res.endWithoutBody(Buffer.byteLength(json));
      else exchange.res.end(json, exchange.closeAfter);
    });
    this.finish(exchange);
  }

  /** A non-JSON answer (a preview PNG, an IPP response), with the same CORS headers as JSON answers (none on the IPP door). */
  sendBytes(exchange: Exchange, status: number, bytes: Uint8Array, contentType: string, headers: Record<string, string>): void {
    if (exchange.done) return;
    const cors = this.corsOf(exchange);
    exchange.res.cork(() => {
      exchange.res.writeStatus(STATUS_LINE[status] ?? String(status));
      exchange.res.writeHeader('Content-Type', contentType);
      exchange.res.writeHeader('X-Content-Type-Options', 'nosniff');
      for (const name in cors) exchange.res.writeHeader(name, cors[name]);
      for (const name in headers) exchange.res.writeHeader(name, headers[name]);
      exchange.res.end(bytes, exchange.closeAfter);
    });
    this.finish(exchange);
  }

  /** An answer whose status line and headers are given whole (a static file); HEAD and 304 without the body. */
  sendRaw(exchange: Exchange, status: number, headers: Record<string, string>, body: Uint8Array): void {
    if (exchange.done) return;
    const { res } = exchange;
    res.cork(() => {
      res.writeStatus(STATUS_LINE[status] ?? String(status));
      for (const name in headers) res.writeHeader(name, headers[name]);
      if (status === 304) res.endWithoutBody();
      else if (exchange.method === 'head') res.endWithoutBody(body.length);
      else res.end(body);
    });
    this.finish(exchange);
  }

  /** Ends the exchange without an answer of ours (a WebSocket upgrade answered by uWS). */
  end(exchange: Exchange): void {
    this.finish(exchange);
  }

  /** The 404 envelope for a path no route has; below /api/v1 the key is checked first (401 before 404). */
  notFound(exchange: Exchange, checkKey: () => void): void {
    try {
      if (exchange.url.startsWith(API_PREFIX)) checkKey();
      throw new AppError('NOT_FOUND', `no route for ${exchange.method.toUpperCase()} ${exchange.url}`);
    } catch (err) {
      this.afterBody(exchange, () => this.fail(exchange, err));
    }
  }

  /**
   * Calls `answer` once the request's unread body has been read and dropped (at once when it has none): an answer sent
   * with body bytes still unread makes uWS close the connection with a reset, and the client loses the answer. A body
   * larger than the body limit is not read: the answer then closes the connection.
   */
  afterBody(exchange: Exchange, answer: () => void): void {
    const declared = exchange.headers['content-length'];
    const chunked = exchange.headers['transfer-encoding'] !== '';
    if (exchange.method === 'get' || exchange.method === 'head' || (!chunked && (declared === '' || declared === '0'))) {
      answer();
      return;
    }
    const limit = this.deps.policy.maxBodyBytes();
    if (!chunked && !(Number(declared) <= limit)) {
      exchange.closeAfter = true;
      answer();
      return;
    }
    let seen = 0;
    exchange.res.onData((chunk, isLast) => {
      if (exchange.done) return;
      seen += chunk.byteLength;
      if (!isLast && seen <= limit) return;
      exchange.closeAfter ||= !isLast;
      answer();
    });
  }

  /**
   * Holds `bytes` of a body over `uncounted` against the budget until the answer is sent (growing what the request holds
   * already); refuses (503, Retry-After) when others hold too much.
   */
  reserve(exchange: Exchange, bytes: number, uncounted = LARGE_BODY_BYTES): void {
    if (bytes <= uncounted || bytes <= exchange.reserved) return;
    if (!this.deps.budget.take(bytes - exchange.reserved)) {
      throw new AppError('TOO_BUSY', `the device is receiving other large documents; send this one (${bytes} bytes) again shortly`, { headers: { 'Retry-After': '2' } });
    }
    exchange.reserved = bytes;
  }

  /** Counts all `bytes` of the exchange's body in the budget and detaches them from it: the caller gives them back. */
  keepBody(exchange: Exchange, bytes: number): (() => void) | null {
    // an exchange that already ended (aborted) gave its reservation back: all of it is taken anew
    const already = exchange.done ? 0 : exchange.reserved;
    const kept = Math.max(bytes, already);
    if (kept > already && !this.deps.budget.take(kept - already)) return null;
    exchange.reserved = 0;
    let held = true;
    return () => {
      if (held) this.deps.budget.give(kept);
      held = false;
    };
  }

  /**
   * Sends an answer to a streamed body only once the body has arrived (what the handler did not read is dropped): an
   * answer with body bytes unread makes uWS reset the connection. Past the body limit the answer closes the connection.
   * True when `send` is called later (or was, at once): the caller answers nothing itself.
   */
  waitForStream(exchange: Exchange, send: () => void): boolean {
    const body = exchange.stream;
    if (!body || exchange.done) return false;
    exchange.stream = null;
    body.discard(this.deps.policy.maxBodyBytes(), (close) => {
      exchange.closeAfter ||= close;
      send();
    });
    return true;
  }

  private finish(exchange: Exchange): void {
    if (exchange.done) return;
    exchange.done = true;
    this.deps.budget.give(exchange.reserved);
    exchange.exit?.();
    if (exchange.reserved > 0) this.deps.afterLargeBody?.(exchange.reserved);
    this.inFlight -= 1;
    if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  /** The CORS headers of an answer: none on the IPP door, else by the allowed origins. */
  private corsOf(exchange: Exchange): Record<string, string> {
    const origin = exchange.headers.origin;
    return origin && !exchange.url.startsWith(IPP_PREFIX) ? corsHeaders(origin, this.deps.policy.allowedOrigins()) : NO_HEADERS;
  }
}
