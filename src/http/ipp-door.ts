// The IPP door: shared printers' IPP at `/ipp/print/<id>` and their icon at `/ipp/icon.png`, without the API key
// (printer-sharing.md), on the IPP port and beside the API on its listeners.
import { AppError } from '../errors';
import type { ConnectionGate } from '../util/connection-gate';
import { KEYLESS_BODY_BYTES } from '../util/memory-budget';
import { readBody } from './body-reader';
import { declaredLength, refuseAmbiguousLength } from './content-length';
import { remoteAddress, type Exchange } from './exchange';
import { NO_HEADERS, type Exchanges } from './exchanges';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws';

/**
 * Answers one IPP request (its bytes, document included) to the shared printer `printerId`; never rejects with a protocol
 * error. `origin.hold()` keeps the body's bytes counted in the memory budget past the answer (a document kept for a later
 * Close-Job) and returns their release, or null when the budget cannot count them all.
 */
export type IppEndpoint = (printerId: string, body: Buffer, origin: { host: string; secure: boolean; hold: () => (() => void) | null }) => Promise<Buffer>;

/** The encoded IPP server-error-busy answer (with `message`) to a request of which only `head`, its first bytes (up to 8), was read. */
export type IppBusy = (head: Buffer, message: string) => Buffer;

/**
 * What the IPP door serves: the operations, the icon, the gate of IPP requests in progress (in all and per address),
 * the busy answer, and `maxConnections`, the most connections the IPP port holds at once (its share of the descriptors).
 */
export interface IppDoorDeps {
  handle: IppEndpoint;
  icon: () => Buffer;
  gate: ConnectionGate;
  busy: IppBusy;
  maxConnections?: number;
}

/** Mounts the IPP routes on an app; each request counted in the gate, its body within the limit and the budget. */
export class IppDoor {
  constructor(
    private readonly deps: IppDoorDeps,
    private readonly exchanges: Exchanges,
  ) {}

  /** Registers `/ipp/print/:id` and `/ipp/icon.png` on `app` (`secure`: the app is the HTTPS listener). */
  mount(app: TemplatedApp, secure: boolean): void {
    app.post('/ipp/print/:id', (res, req) => this.handle(res, req, secure));
    app.get('/ipp/icon.png', (res, req) => {
      this.exchanges.serve(res, req, (exchange) => this.exchanges.sendBytes(exchange, 200, this.deps.icon(), 'image/png', NO_HEADERS));
    });
  }

  /** One IPP request: the body read within the body limit and budget, answered as application/ipp. */
  private handle(res: HttpResponse, req: HttpRequest, secure: boolean): void {
    this.exchanges.serve(res, req, (exchange) => this.start(exchange, res, req, secure));
  }

  private start(exchange: Exchange, res: HttpResponse, req: HttpRequest, secure: boolean): void {
    const { exchanges } = this;
    const printerId = req.getParameter(0) ?? '';
    const host = req.getHeader('host');
    let body: Promise<Buffer>;
    try {
      refuseAmbiguousLength(req, exchange);
      refuseBrowserIpp(exchange);
      this.enter(exchange);
      const declared = declaredLength(exchange);
      const limit = exchanges.policy.maxBodyBytes();
      if (declared !== null && declared <= limit) exchanges.reserve(exchange, declared, KEYLESS_BODY_BYTES);
      body = readBody(res, limit, declared, (size) => exchanges.reserve(exchange, size, KEYLESS_BODY_BYTES));
    } catch (err) {
      if (exchange.closeAfter) exchanges.fail(exchange, err);
      else if (err instanceof AppError && err.code === 'TOO_BUSY') this.busy(exchange, err.message);
      else exchanges.afterBody(exchange, () => exchanges.fail(exchange, err));
      return;
    }
    body
      .then((bytes) => (exchange.aborted ? null : this.deps.handle(printerId, bytes, { host, secure, hold: () => exchanges.keepBody(exchange, bytes.length) })))
      .then(
        (answer) => answer && exchanges.sendBytes(exchange, 200, answer, 'application/ipp', NO_HEADERS),
        (err: unknown) => exchanges.fail(exchange, err),
      );
  }

  /** Counts the exchange in the keyless doors' gate until it ends; refuses (503, connection closed, body unread) when full. */
  private enter(exchange: Exchange): void {
    const exit = this.deps.gate.enter(remoteAddress(exchange));
    if (!exit) {
      exchange.closeAfter = true;
      throw new AppError('TOO_BUSY', 'the device is answering too many IPP requests; send this one again shortly', { headers: { 'Retry-After': '2' } });
    }
    exchange.exit = exit;
  }

  /** IPP's own busy answer to a request the memory budget cannot take: sent once its body was read and dropped (its first 8 bytes kept for the request id). */
  private busy(exchange: Exchange, message: string): void {
    const head = Buffer.alloc(8);
    let seen = 0;
    const limit = this.exchanges.policy.maxBodyBytes();
    exchange.res.onData((chunk, isLast) => {
      if (exchange.done) return;
      if (seen < head.length) Buffer.from(chunk).copy(head, seen, 0, Math.min(chunk.byteLength, head.length - seen));
      seen += chunk.byteLength;
      if (!isLast && seen <= limit) return;
      exchange.closeAfter ||= !isLast;
      this.exchanges.sendBytes(exchange, 200, this.deps.busy(head.subarray(0, Math.min(seen, head.length)), message), 'application/ipp', NO_HEADERS);
    });
  }
}

/**
 * An IPP request is application/ipp from a printing client on the LAN: one a browser sent (it carries Origin) is 403,
 * and any other type (text/plain, which a page may POST without a preflight) is 415, both before the operation runs.
 */
function refuseBrowserIpp(exchange: Exchange): void {
  if (exchange.headers.origin) throw new AppError('ORIGIN_NOT_ALLOWED', `IPP requests from web pages are refused (Origin ${exchange.headers.origin.slice(0, 200)})`);
  const type = exchange.headers['content-type'].split(';')[0].trim().toLowerCase();
  if (type !== 'application/ipp') throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type} is not supported here; send application/ipp`);
}
