// The uWS HTTP(S) server: mounts the JSON route table, static mounts and WebSocket routes; authenticates, reads bodies, answers in the envelope.
import { AppError } from '../errors';
import { errorAnswer } from './api-dispatch';
import type { Logger } from '../log';
import { compileValidator, type Validator } from '../schemas/validate';
import type { ConnectionGate, GateExit } from '../util/connection-gate';
import { KEYLESS_BODY_BYTES, LARGE_BODY_BYTES, type MemoryBudget } from '../util/memory-budget';
import { readBody } from './body-reader';
import { streamBody, type BodyStream } from './body-stream';
import { splitStringField } from './json-string-field';
import { corsHeaders, preflightHeaders } from './cors';
import { envelope, envelopeJson, type Envelope } from './envelope';
import type { ApiAuth } from './auth';
import type { ApiReply, ApiRequest, Route } from './route';
import { SocketHub } from './socket-hub';
import { DEFAULT_SOCKET_SETTINGS, type SocketRoute, type SocketSettings } from './socket-route';
import { StaticSite, type StaticAnswer, type StaticMount } from './static-site';
import { capConnections } from './connection-cap';
import type { HttpRequest, HttpResponse, TemplatedApp, Uws, us_listen_socket } from './uws';

/** Every API path starts with this. */
export const API_PREFIX = '/api/v1';

/** Live settings the server reads on each request. */
export interface HttpPolicy {
  maxBodyBytes(): number;
  allowedOrigins(): readonly string[];
}

/** Collaborators of the server. */
export interface HttpServerDeps {
  uws: Uws;
  routes: Route[];
  auth: ApiAuth;
  policy: HttpPolicy;
  /** The device's one allowance of client bytes in memory, shared with the IPP documents and raw ports. */
  budget: MemoryBudget;
  logger: Logger;
  /** Called when an exchange that held a large body (one counted in the body budget) has ended. */
  afterLargeBody?: () => void;
  /** Folders served without a key below URL prefixes (a web console); API paths never reach them. */
  statics?: readonly StaticMount[];
  /** WebSocket routes below `/api/v1`, authenticated like the JSON routes. */
  sockets?: readonly SocketRoute[];
  /** Overrides of DEFAULT_SOCKET_SETTINGS. */
  socketSettings?: Partial<SocketSettings>;
  /**
   * IPP of shared printers at `/ipp/print/<id>` and their icon at `/ipp/icon.png`, without the API key (printer-sharing.md);
   * absent: 404. `maxConnections` caps the connections the IPP port holds at once (its share of the descriptors).
   */
  ipp?: { handle: IppEndpoint; icon: () => Buffer; gate: ConnectionGate; busy: IppBusy; maxConnections?: number };
}

/**
 * Answers one IPP request (its bytes, document included) to the shared printer `printerId`; never rejects with a protocol
 * error. `origin.hold()` keeps the body's bytes counted in the memory budget past the answer (a document kept for a later
 * Close-Job) and returns their release, or null when the budget cannot count them all.
 */
export type IppEndpoint = (printerId: string, body: Buffer, origin: { host: string; secure: boolean; hold: () => (() => void) | null }) => Promise<Buffer>;

/** The encoded IPP server-error-busy answer (with `message`) to a request of which only `head`, its first bytes (up to 8), was read. */
export type IppBusy = (head: Buffer, message: string) => Buffer;

/** TLS files for the HTTPS listener. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 304: 'Not Modified', 308: 'Permanent Redirect', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found',
  405: 'Method Not Allowed', 409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Content',
  429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 505: 'HTTP Version Not Supported', 507: 'Insufficient Storage',
};

/** `<status> <reason phrase>` for every status the API answers with. */
export const STATUS_LINE: Record<number, string> = Object.fromEntries(Object.entries(STATUS_TEXT).map(([code, text]) => [code, `${code} ${text}`]));
const NO_HEADERS: Record<string, string> = Object.freeze({}) as Record<string, string>;
const EMPTY = Buffer.alloc(0);

type ParsedBody = { kind: ApiRequest['bodyKind']; data: unknown; largeField?: Buffer };
const NO_BODY: ParsedBody = Object.freeze({ kind: 'none', data: undefined });
/** How much of a large field the parsed body keeps (for checks that read its start, such as content-type inference). */
const LARGE_FIELD_PREFIX = 256;

const READ_HEADERS = ['x-api-key', 'content-type', 'content-length', 'origin', 'idempotency-key', 'transfer-encoding'];

interface Compiled {
  route: Route;
  paramNames: string[];
  validate?: Validator<never>;
}

/** Serves the API on any number of HTTP/HTTPS listeners; `close` stops accepting and waits for in-flight answers. */
export class HttpServer {
  private readonly compiled: Compiled[];
  private readonly listeners: us_listen_socket[] = [];
  private readonly apps: TemplatedApp[] = [];
  private inFlight = 0;
  private idleWaiters: Array<() => void> = [];
  private readonly site: StaticSite;
  private readonly hub: SocketHub;

  /** Large bodies held at once: at most the body limit's worth, so N uploads cannot take N times its memory. */
  private readonly budget: MemoryBudget;

  constructor(private readonly deps: HttpServerDeps) {
    this.budget = deps.budget;
    this.compiled = deps.routes.map((route) => ({
      route,
      paramNames: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
      validate: route.body ? (compileValidator(route.body) as Validator<never>) : undefined,
    }));
    this.site = new StaticSite(deps.statics ?? []);
    this.hub = new SocketHub({
      routes: deps.sockets ?? [],
      auth: deps.auth,
      settings: { ...DEFAULT_SOCKET_SETTINGS, ...deps.socketSettings },
      logger: deps.logger,
      prefix: API_PREFIX,
      allowedOrigins: deps.policy.allowedOrigins,
      gate: (res, req, upgrade) => this.gate(res, req, upgrade),
    });
  }

  /** Closes every WebSocket an API key opened with `code` (4401 once the key changed: events.md's wrong-key code). */
  closeKeyedSockets(code: number, reason: string): void {
    this.hub.closeAuthenticated(code, reason);
  }

  /** Starts a plain HTTP listener; resolves with the bound port (pass 0 for a free one). */
  listen(host: string, port: number): Promise<number> {
    return this.bind(this.mount(this.deps.uws.App(), false), host, port);
  }

  /** Starts an HTTPS listener with the given certificate; resolves with the bound port. */
  listenTls(host: string, port: number, tls: TlsFiles): Promise<number> {
    const app = this.deps.uws.SSLApp({ cert_file_name: tls.certFile, key_file_name: tls.keyFile });
    return this.bind(this.mount(app, true), host, port);
  }

  /** Starts the IPP port's listener: `/ipp/print/<id>` only, everything else 404; resolves with the bound port. */
  listenIpp(host: string, port: number): Promise<number> {
    const app = this.deps.uws.App();
    this.mountIpp(app, false);
    app.any('/*', (res, req) => this.notFound(res, req));
    if (this.deps.ipp?.maxConnections !== undefined) capConnections(app, this.deps.ipp.maxConnections);
    return this.bind(app, host, port);
  }

  /**
   * Stops accepting connections, closes WebSockets (1001), waits until in-flight requests are answered (or `graceMs`
   * passed), then closes every connection still open (idle keep-alive ones, and those whose answer did not come).
   */
  async close(graceMs = 5000): Promise<void> {
    for (const socket of this.listeners.splice(0)) this.deps.uws.us_listen_socket_close(socket);
    this.hub.closeAll();
    try {
      await this.drain(graceMs);
    } finally {
      for (const app of this.apps.splice(0)) app.close();
    }
  }

  private async drain(graceMs: number): Promise<void> {
    if (this.inFlight === 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private bind(app: TemplatedApp, host: string, port: number): Promise<number> {
    this.apps.push(app);
    return new Promise((resolve, reject) => {
      app.listen(host, port, (socket) => {
        if (!socket) {
          reject(new Error(`cannot listen on ${host}:${port}`));
          return;
        }
        this.listeners.push(socket);
        resolve(this.deps.uws.us_socket_local_port(socket));
      });
    });
  }

  private mount(app: TemplatedApp, secure: boolean): TemplatedApp {
    this.hub.mount(app);
    this.mountIpp(app, secure);
    for (const compiled of this.compiled) {
      const pattern = API_PREFIX + compiled.route.path.replace(/\{(\w+)\}/g, ':$1');
      const method = compiled.route.method === 'delete' ? 'del' : compiled.route.method;
      app[method](pattern, (res, req) => this.handle(compiled, res, req));
      // uWS routes HEAD only to head handlers: the GET answer's status and headers, without its body
      if (method === 'get') app.head(pattern, (res, req) => this.handle(compiled, res, req));
    }
    app.get('/*', (res, req) => this.fallback(res, req));
    app.head('/*', (res, req) => this.fallback(res, req));
    app.options('/*', (res, req) => this.preflight(res, req));
    app.any('/*', (res, req) => this.notFound(res, req));
    return app;
  }

  private mountIpp(app: TemplatedApp, secure: boolean): void {
    const ipp = this.deps.ipp;
    if (!ipp) return;
    app.post('/ipp/print/:id', (res, req) => this.handleIpp(ipp, res, req, secure));
    app.get('/ipp/icon.png', (res, req) => {
      const exchange = this.begin(res, req);
      this.sendBytes(exchange, 200, ipp.icon(), 'image/png', NO_HEADERS);
    });
  }

  /** One IPP request: the body read within the body limit and budget, answered as application/ipp once the packet is parsed. */
  private handleIpp(ipp: NonNullable<HttpServerDeps['ipp']>, res: HttpResponse, req: HttpRequest, secure: boolean): void {
    const exchange = this.begin(res, req);
    const printerId = req.getParameter(0) ?? '';
    const host = req.getHeader('host');
    let body: Promise<Buffer>;
    try {
      refuseAmbiguousLength(req, exchange);
      refuseBrowserIpp(exchange);
      this.enterIpp(ipp.gate, exchange);
      const declared = declaredLength(exchange);
      const limit = this.deps.policy.maxBodyBytes();
      if (declared !== null && declared <= limit) this.reserve(exchange, declared, KEYLESS_BODY_BYTES);
      body = readBody(res, limit, declared, (size) => this.reserve(exchange, size, KEYLESS_BODY_BYTES));
    } catch (err) {
      if (exchange.closeAfter) this.fail(exchange, err);
      else if (err instanceof AppError && err.code === 'TOO_BUSY') this.ippBusy(ipp.busy, exchange, err.message);
      else this.afterBody(exchange, () => this.fail(exchange, err));
      return;
    }
    body
      .then((bytes) => new Promise<Buffer>((resolve) => setImmediate(() => resolve(bytes))))
      .then((bytes) => (exchange.aborted ? null : ipp.handle(printerId, bytes, { host, secure, hold: () => this.keepBody(exchange, bytes.length) })))
      .then(
        (answer) => answer && this.sendBytes(exchange, 200, answer, 'application/ipp', NO_HEADERS),
        (err: unknown) => this.fail(exchange, err),
      );
  }

  private handle(compiled: Compiled, res: HttpResponse, req: HttpRequest): void {
    const exchange = this.begin(res, req);
    const params: Record<string, string> = {};
    // read now (req dies with this callback), decoded only once the key is known good: 401 comes before 400
    const raw = compiled.paramNames.map((_, index) => req.getParameter(index) ?? '');
    const safe = SAFE_METHODS.has(exchange.method);
    try {
      if (!safe) refuseAmbiguousLength(req, exchange);
      this.authenticate(compiled.route, exchange);
      compiled.paramNames.forEach((name, index) => {
        params[name] = decodeParam(raw[index], name);
      });
    } catch (err) {
      if (exchange.closeAfter) this.fail(exchange, err);
      else this.afterBody(exchange, () => this.fail(exchange, err));
      return;
    }
    this.run(compiled, exchange, params, this.startBody(compiled, res, exchange));
  }

  private begin(res: HttpResponse, req: HttpRequest): Exchange {
    const headers: Record<string, string> = {};
    for (const name of READ_HEADERS) headers[name] = req.getHeader(name);
    const exchange: Exchange = {
      res,
      done: false,
      aborted: false,
      controller: null,
      method: req.getMethod(),
      url: req.getUrl(),
      query: req.getQuery() ?? '',
      headers,
      address: null,
      reserved: 0,
      closeAfter: false,
      exit: null,
      stream: null,
    };
    this.inFlight += 1;
    res.onAborted(() => {
      exchange.aborted = true;
      exchange.controller?.abort();
      exchange.stream?.aborted();
      this.finish(exchange);
    });
    return exchange;
  }

  private authenticate(route: Route, exchange: Exchange): void {
    if (route.auth === false) return;
    this.deps.auth.check(exchange.headers['x-api-key'], () => remoteAddress(exchange));
  }

  private startBody(compiled: Compiled, res: HttpResponse, exchange: Exchange): Promise<ParsedBody> | ParsedBody {
    if (exchange.method === 'get' || exchange.method === 'delete' || exchange.method === 'head') return NO_BODY;
    const limit = this.deps.policy.maxBodyBytes();
    let kind: 'json' | 'raw' | 'none';
    let declared: number | null;
    try {
      declared = declaredLength(exchange);
      kind = bodyKind(exchange.headers['content-type'], compiled.route);
      if (kind === 'raw' && compiled.route.streamBody) {
        // to disk as it comes: no body limit, nothing from the memory budget
        exchange.stream = streamBody(res, declared);
        return { kind: 'stream', data: exchange.stream.stream };
      }
      if (declared !== null && declared <= limit) this.reserve(exchange, declared);
    } catch (err) {
      if (exchange.closeAfter) return Promise.reject(err);
      return new Promise((_resolve, reject) => this.afterBody(exchange, () => reject(err)));
    }
    // a body of unknown length (chunked) takes from the budget as its buffer grows
    return readBody(res, limit, declared, (size) => this.reserve(exchange, size)).then((bytes) => parseBody(bytes, kind, compiled));
  }

  /**
   * Calls `answer` once the request's unread body has been read and dropped (at once when it has none): an answer sent
   * with body bytes still unread makes uWS close the connection with a reset, and the client loses the answer. A body
   * larger than the body limit is not read: the answer then closes the connection.
   */
  private afterBody(exchange: Exchange, answer: () => void): void {
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
  private reserve(exchange: Exchange, bytes: number, uncounted = LARGE_BODY_BYTES): void {
    if (bytes <= uncounted || bytes <= exchange.reserved) return;
    if (!this.budget.take(bytes - exchange.reserved)) {
      throw new AppError('TOO_BUSY', `the device is receiving other large documents; send this one (${bytes} bytes) again shortly`, { headers: { 'Retry-After': '2' } });
    }
    exchange.reserved = bytes;
  }

  /** IPP's own busy answer to a request the memory budget cannot take: sent once its body was read and dropped (its first 8 bytes kept for the request id). */
  private ippBusy(busy: IppBusy, exchange: Exchange, message: string): void {
    const head = Buffer.alloc(8);
    let seen = 0;
    const limit = this.deps.policy.maxBodyBytes();
    exchange.res.onData((chunk, isLast) => {
      if (exchange.done) return;
      if (seen < head.length) Buffer.from(chunk).copy(head, seen, 0, Math.min(chunk.byteLength, head.length - seen));
      seen += chunk.byteLength;
      if (!isLast && seen <= limit) return;
      exchange.closeAfter ||= !isLast;
      this.sendBytes(exchange, 200, busy(head.subarray(0, Math.min(seen, head.length)), message), 'application/ipp', NO_HEADERS);
    });
  }

  /** Counts the exchange in the keyless doors' gate until it ends; refuses (503, connection closed, body unread) when full. */
  private enterIpp(gate: ConnectionGate, exchange: Exchange): void {
    const exit = gate.enter(remoteAddress(exchange));
    if (!exit) {
      exchange.closeAfter = true;
      throw new AppError('TOO_BUSY', 'the device is answering too many IPP requests; send this one again shortly', { headers: { 'Retry-After': '2' } });
    }
    exchange.exit = exit;
  }

  /** Counts all `bytes` of the exchange's body in the budget and detaches them from it: the caller gives them back. */
  private keepBody(exchange: Exchange, bytes: number): (() => void) | null {
    // an exchange that already ended (aborted) gave its reservation back: all of it is taken anew
    const already = exchange.done ? 0 : exchange.reserved;
    const kept = Math.max(bytes, already);
    if (kept > already && !this.budget.take(kept - already)) return null;
    exchange.reserved = 0;
    let held = true;
    return () => {
      if (held) this.budget.give(kept);
      held = false;
    };
  }

  /** Runs the handler; answers synchronously when neither the body nor the handler is asynchronous. */
  private run(compiled: Compiled, exchange: Exchange, params: Record<string, string>, body: Promise<ParsedBody> | ParsedBody): void {
    if (body instanceof Promise) {
      body.then(
        (parsed) => this.run(compiled, exchange, params, parsed),
        (err: unknown) => this.fail(exchange, err),
      );
      return;
    }
    // a client gone before its body was read gets no answer, so its request is not run (a print retried with its key prints once)
    if (exchange.aborted) return;
    try {
      const request = apiRequest(exchange, params, body);
      const reply = compiled.route.handler(request);
      if (reply instanceof Promise) reply.then((r) => this.reply(compiled, exchange, request.module, r), (err: unknown) => this.fail(exchange, err));
      else this.reply(compiled, exchange, request.module, reply);
    } catch (err) {
      this.fail(exchange, err);
    }
  }

  /**
   * Sends an answer to a streamed body only once the body has arrived (what the handler did not read is dropped): an
   * answer with body bytes unread makes uWS reset the connection. Past the body limit the answer closes the connection.
   * True when `send` is called later (or was, at once): the caller answers nothing itself.
   */
  private waitForStream(exchange: Exchange, send: () => void): boolean {
    const body = exchange.stream;
    if (!body || exchange.done) return false;
    exchange.stream = null;
    body.discard(this.deps.policy.maxBodyBytes(), (close) => {
      exchange.closeAfter ||= close;
      send();
    });
    return true;
  }

  private reply(compiled: Compiled, exchange: Exchange, module: string, reply: ApiReply): void {
    if (this.waitForStream(exchange, () => this.reply(compiled, exchange, module, reply))) return;
    const status = reply.status ?? 200;
    if ('bytes' in reply && reply.bytes !== undefined) {
      this.sendBytes(exchange, status, reply.bytes, reply.contentType, reply.headers ?? NO_HEADERS);
      return;
    }
    if (reply.contentJson !== undefined && !compiled.route.bare) {
      this.sendJson(exchange, status, envelopeJson(status, module, reply.message, reply.contentJson), NO_HEADERS);
      return;
    }
    this.send(exchange, status, compiled.route.bare ? reply.content : envelope(status, module, reply.message, reply.content), NO_HEADERS);
  }

  private fail(exchange: Exchange, err: unknown): void {
    if (this.waitForStream(exchange, () => this.fail(exchange, err))) return;
    const answer = errorAnswer(moduleOf(exchange.url), err);
    if (answer.unexpected) this.deps.logger.error('request failed', { url: exchange.url, error: err instanceof Error ? err.stack : String(err) });
    this.send(exchange, answer.status, answer.body, answer.headers);
  }

  private send(exchange: Exchange, status: number, body: Envelope | unknown, headers: Record<string, string>): void {
    this.sendJson(exchange, status, JSON.stringify(body), headers);
  }

  private sendJson(exchange: Exchange, status: number, json: string, headers: Record<string, string>): void {
    if (exchange.done) return;
    const cors = corsOf(exchange, this.deps.policy);
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
  private sendBytes(exchange: Exchange, status: number, bytes: Uint8Array, contentType: string, headers: Record<string, string>): void {
    if (exchange.done) return;
    const cors = corsOf(exchange, this.deps.policy);
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

  private finish(exchange: Exchange): void {
    if (exchange.done) return;
    exchange.done = true;
    this.budget.give(exchange.reserved);
    exchange.exit?.();
    if (exchange.reserved > 0) this.deps.afterLargeBody?.();
    this.inFlight -= 1;
    if (this.inFlight === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private preflight(res: HttpResponse, req: HttpRequest): void {
    // the IPP door is for printing clients on the LAN, which send no preflight: a page asking for one gets the 404
    if (req.getUrl().startsWith(IPP_PREFIX)) return this.notFound(res, req);
    const origin = req.getHeader('origin');
    const headers = preflightHeaders(origin, this.deps.policy.allowedOrigins(), req.getHeader('access-control-request-private-network') === 'true');
    res.writeStatus('204 No Content');
    for (const [name, value] of Object.entries(headers)) res.writeHeader(name, value);
    res.endWithoutBody();
  }

  /** GET and HEAD outside the API routes: a static file when a mount covers the path, else the 404 envelope (always below /api/). */
  private fallback(res: HttpResponse, req: HttpRequest): void {
    const url = req.getUrl();
    if (url.startsWith('/api/') || !this.site.covers(url)) {
      this.notFound(res, req);
      return;
    }
    const request = { path: url, query: req.getQuery() ?? '', acceptEncoding: req.getHeader('accept-encoding'), ifNoneMatch: req.getHeader('if-none-match'), accept: req.getHeader('accept') };
    const exchange = this.begin(res, req);
    this.site.answer(request).then(
      (answer) => this.sendStatic(exchange, answer),
      (err: unknown) => this.fail(exchange, err),
    );
  }

  private sendStatic(exchange: Exchange, answer: StaticAnswer): void {
    if (exchange.done) return;
    const { res } = exchange;
    res.cork(() => {
      res.writeStatus(STATUS_LINE[answer.status]);
      for (const name in answer.headers) res.writeHeader(name, answer.headers[name]);
      const body = answer.body ?? EMPTY;
      if (answer.status === 304) res.endWithoutBody();
      else if (exchange.method === 'head') res.endWithoutBody(body.length);
      else res.end(body);
    });
    this.finish(exchange);
  }

  /** Runs a WebSocket upgrade as a request: onAborted first, and a refusal (401, 429) answered as the envelope. */
  private gate(res: HttpResponse, req: HttpRequest, upgrade: (apiKey: string, remoteAddress: () => string) => void): void {
    const exchange = this.begin(res, req);
    try {
      upgrade(exchange.headers['x-api-key'], () => remoteAddress(exchange));
    } catch (err) {
      this.fail(exchange, err);
      return;
    }
    this.finish(exchange);
  }

  private notFound(res: HttpResponse, req: HttpRequest): void {
    const exchange = this.begin(res, req);
    try {
      if (exchange.url.startsWith(API_PREFIX)) this.deps.auth.check(exchange.headers['x-api-key'], () => remoteAddress(exchange));
      throw new AppError('NOT_FOUND', `no route for ${exchange.method.toUpperCase()} ${exchange.url}`);
    } catch (err) {
      this.afterBody(exchange, () => this.fail(exchange, err));
    }
  }
}

interface Exchange {
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

/** Where the IPP door answers: printers on the LAN print here, web pages never (no CORS, no cross-origin request). */
const IPP_PREFIX = '/ipp/';

/**
 * An IPP request is application/ipp from a printing client on the LAN: one a browser sent (it carries Origin) is 403,
 * and any other type (text/plain, which a page may POST without a preflight) is 415, both before the operation runs.
 */
function refuseBrowserIpp(exchange: Exchange): void {
  if (exchange.headers.origin) throw new AppError('ORIGIN_NOT_ALLOWED', `IPP requests from web pages are refused (Origin ${exchange.headers.origin.slice(0, 200)})`);
  const type = exchange.headers['content-type'].split(';')[0].trim().toLowerCase();
  if (type !== 'application/ipp') throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type} is not supported here; send application/ipp`);
}

/** The CORS headers of an answer: none on the IPP door, else by the allowed origins. */
function corsOf(exchange: Exchange, policy: HttpPolicy): Record<string, string> {
  const origin = exchange.headers.origin;
  return origin && !exchange.url.startsWith(IPP_PREFIX) ? corsHeaders(origin, policy.allowedOrigins()) : NO_HEADERS;
}

/** Methods without a body to frame: their Content-Length fields are not looked at. */
const SAFE_METHODS = new Set(['get', 'head']);

/**
 * RFC 9112 section 6.3: Content-Length fields that disagree make the framing unknowable, so the answer is 400 and the
 * connection closes (uWS frames by the first one and would read the rest as another request). Equal repeats pass.
 */
function refuseAmbiguousLength(req: HttpRequest, exchange: Exchange): void {
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
function declaredLength(exchange: Exchange): number | null {
  const text = exchange.headers['content-length'];
  if (!text) return null;
  if (/^[0-9]+$/.test(text)) return Number(text);
  exchange.closeAfter = true;
  throw new AppError('INVALID_REQUEST', 'Content-Length must be a decimal number of bytes');
}

function remoteAddress(exchange: Exchange): string {
  if (exchange.address !== null) return exchange.address;
  if (exchange.aborted) return (exchange.address = '');
  exchange.address = Buffer.from(exchange.res.getRemoteAddressAsText()).toString();
  return exchange.address;
}

function apiRequest(exchange: Exchange, params: Record<string, string>, body: ParsedBody): ApiRequest {
  let query: URLSearchParams | undefined;
  return {
    params,
    get query() {
      return (query ??= new URLSearchParams(exchange.query));
    },
    headers: exchange.headers,
    body: body.data,
    bodyKind: body.kind,
    largeField: body.largeField ?? null,
    module: moduleOf(exchange.url),
    get remoteAddress() {
      return remoteAddress(exchange);
    },
    get signal() {
      if (!exchange.controller) {
        exchange.controller = new AbortController();
        if (exchange.aborted) exchange.controller.abort();
      }
      return exchange.controller.signal;
    },
  };
}

/** The envelope's `module` of a request path: the path below /api/v1 (`/` for the prefix alone), else the path. */
export function moduleOf(url: string): string {
  return url.startsWith(API_PREFIX) ? url.slice(API_PREFIX.length) || '/' : url;
}

function decodeParam(raw: string, name: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError('INVALID_REQUEST', `${name} is not a valid URL-encoded value`);
  }
}

function bodyKind(contentType: string, route: Route): 'json' | 'raw' | 'none' {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === '' || type === 'application/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/octet-stream' && (route.rawBody || route.streamBody)) return 'raw';
  const accepted = route.rawBody || route.streamBody ? 'application/json or application/octet-stream' : 'application/json';
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type ${type} is not supported here; send ${accepted}`);
}

function parseBody(bytes: Buffer, kind: 'json' | 'raw' | 'none', compiled: Compiled): ParsedBody {
  if (kind === 'raw') return { kind, data: bytes };
  if (bytes.length === 0) {
    if (compiled.validate) compiled.validate(undefined);
    return { kind: 'none', data: undefined };
  }
  const split = compiled.route.largeField && bytes.length > LARGE_BODY_BYTES ? splitStringField(bytes, compiled.route.largeField) : null;
  let parsed: unknown;
  try {
    parsed = JSON.parse((split?.rest ?? bytes).toString('utf8'));
  } catch (err) {
    throw new AppError('INVALID_REQUEST', `body is not valid JSON: ${(err as Error).message}`);
  }
  if (split && parsed && typeof parsed === 'object') (parsed as Record<string, unknown>)[compiled.route.largeField!] = split.value.subarray(0, LARGE_FIELD_PREFIX).toString('utf8');
  return { kind: 'json', data: compiled.validate ? compiled.validate(parsed) : parsed, ...(split ? { largeField: split.value } : {}) };
}
