// The API door: the JSON route table below /api/v1, each route authenticated, its body read within the limit and validated.
import { AppError } from '../errors';
import { compileValidator, type Validator } from '../schemas/validate';
import { LARGE_BODY_BYTES } from '../util/memory-budget';
import type { ApiAuth } from './auth';
import { readBody } from './body-reader';
import { streamBody } from './body-stream';
import { declaredLength, refuseAmbiguousLength } from './content-length';
import { envelope, envelopeJson } from './envelope';
import { API_PREFIX, moduleOf, remoteAddress, type Exchange } from './exchange';
import { NO_HEADERS, type Exchanges } from './exchanges';
import { splitStringField } from './json-string-field';
import type { ApiReply, ApiRequest, Route } from './route';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws';

type ParsedBody = { kind: ApiRequest['bodyKind']; data: unknown; largeField?: Buffer };
const NO_BODY: ParsedBody = Object.freeze({ kind: 'none', data: undefined });
/** How much of a large field the parsed body keeps (for checks that read its start, such as content-type inference). */
const LARGE_FIELD_PREFIX = 256;
/** Methods without a body to frame: their Content-Length fields are not looked at. */
const SAFE_METHODS = new Set(['get', 'head']);

interface Compiled {
  route: Route;
  paramNames: string[];
  validate?: Validator<never>;
}

/** Serves the route table on any app it is mounted on; answers through the shared exchanges. */
export class ApiDoor {
  private readonly compiled: Compiled[];

  constructor(
    routes: readonly Route[],
    private readonly auth: ApiAuth,
    private readonly exchanges: Exchanges,
  ) {
    this.compiled = routes.map((route) => ({
      route,
      paramNames: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
      validate: route.body ? (compileValidator(route.body) as Validator<never>) : undefined,
    }));
  }

  /** Registers every route below /api/v1 on `app`, HEAD beside each GET (before the app's catch-all routes). */
  mount(app: TemplatedApp): void {
    for (const compiled of this.compiled) {
      const pattern = API_PREFIX + compiled.route.path.replace(/\{(\w+)\}/g, ':$1');
      const method = compiled.route.method === 'delete' ? 'del' : compiled.route.method;
      app[method](pattern, (res, req) => this.handle(compiled, res, req));
      // uWS routes HEAD only to head handlers: the GET answer's status and headers, without its body
      if (method === 'get') app.head(pattern, (res, req) => this.handle(compiled, res, req));
    }
  }

  /** Checks the API key of `exchange` (401 or 429 as an AppError). */
  checkKey(exchange: Exchange): void {
    this.auth.check(exchange.headers['x-api-key'], () => remoteAddress(exchange));
  }

  private handle(compiled: Compiled, res: HttpResponse, req: HttpRequest): void {
    this.exchanges.serve(res, req, (exchange) => this.start(compiled, exchange, res, req));
  }

  private start(compiled: Compiled, exchange: Exchange, res: HttpResponse, req: HttpRequest): void {
    const params: Record<string, string> = {};
    // read now (req dies with this callback), decoded only once the key is known good: 401 comes before 400
    const raw = compiled.paramNames.map((_, index) => req.getParameter(index) ?? '');
    try {
      if (!SAFE_METHODS.has(exchange.method)) refuseAmbiguousLength(req, exchange);
      if (compiled.route.auth !== false) this.checkKey(exchange);
      compiled.paramNames.forEach((name, index) => {
        params[name] = decodeParam(raw[index], name);
      });
    } catch (err) {
      if (exchange.closeAfter) this.exchanges.fail(exchange, err);
      else this.exchanges.afterBody(exchange, () => this.exchanges.fail(exchange, err));
      return;
    }
    this.run(compiled, exchange, params, this.startBody(compiled, res, exchange));
  }

  private startBody(compiled: Compiled, res: HttpResponse, exchange: Exchange): Promise<ParsedBody> | ParsedBody {
    if (exchange.method === 'get' || exchange.method === 'delete' || exchange.method === 'head') return NO_BODY;
    const limit = this.exchanges.policy.maxBodyBytes();
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
      if (declared !== null && declared <= limit) this.exchanges.reserve(exchange, declared);
    } catch (err) {
      if (exchange.closeAfter) return Promise.reject(err);
      return new Promise((_resolve, reject) => this.exchanges.afterBody(exchange, () => reject(err)));
    }
    // a body of unknown length (chunked) takes from the budget as its buffer grows
    return readBody(res, limit, declared, (size) => this.exchanges.reserve(exchange, size)).then((bytes) => parseBody(bytes, kind, compiled));
  }

  /** Runs the handler; answers synchronously when neither the body nor the handler is asynchronous. */
  private run(compiled: Compiled, exchange: Exchange, params: Record<string, string>, body: Promise<ParsedBody> | ParsedBody): void {
    if (body instanceof Promise) {
      body.then(
        (parsed) => this.run(compiled, exchange, params, parsed),
        (err: unknown) => this.exchanges.fail(exchange, err),
      );
      return;
    }
    // a client gone before its body was read gets no answer, so its request is not run (a print retried with its key prints once)
    if (exchange.aborted) return;
    try {
      const request = new ExchangeRequest(exchange, params, body);
      const reply = compiled.route.handler(request);
      if (reply instanceof Promise) reply.then((r) => this.reply(compiled, exchange, request.module, r), (err: unknown) => this.exchanges.fail(exchange, err));
      else this.reply(compiled, exchange, request.module, reply);
    } catch (err) {
      this.exchanges.fail(exchange, err);
    }
  }

  private reply(compiled: Compiled, exchange: Exchange, module: string, reply: ApiReply): void {
    const { exchanges } = this;
    if (exchanges.waitForStream(exchange, () => this.reply(compiled, exchange, module, reply))) return;
    const status = reply.status ?? 200;
    if ('bytes' in reply && reply.bytes !== undefined) {
      exchanges.sendBytes(exchange, status, reply.bytes, reply.contentType, reply.headers ?? NO_HEADERS);
      return;
    }
    if (reply.contentJson !== undefined && !compiled.route.bare) {
      exchanges.sendJson(exchange, status, envelopeJson(status, module, reply.message, reply.contentJson), NO_HEADERS);
      return;
    }
    exchanges.send(exchange, status, compiled.route.bare ? reply.content : envelope(status, module, reply.message, reply.content), NO_HEADERS);
  }
}

/** The request as a handler sees it: fields read from the exchange, the query and signal made on first use. */
class ExchangeRequest implements ApiRequest {
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly bodyKind: ApiRequest['bodyKind'];
  readonly largeField: Buffer | null;
  readonly module: string;
  private parsedQuery: URLSearchParams | undefined;

  constructor(
    private readonly exchange: Exchange,
    readonly params: Record<string, string>,
    body: ParsedBody,
  ) {
    this.headers = exchange.headers;
    this.body = body.data;
    this.bodyKind = body.kind;
    this.largeField = body.largeField ?? null;
    this.module = moduleOf(exchange.url);
  }

  get query(): URLSearchParams {
    return (this.parsedQuery ??= new URLSearchParams(this.exchange.query));
  }

  get remoteAddress(): string {
    return remoteAddress(this.exchange);
  }

  get signal(): AbortSignal {
    const { exchange } = this;
    if (!exchange.controller) {
      exchange.controller = new AbortController();
      if (exchange.aborted) exchange.controller.abort();
    }
    return exchange.controller.signal;
  }
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
