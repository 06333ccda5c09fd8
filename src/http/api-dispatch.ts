// The transport-independent half of a JSON API call: match method and path against the route table, parse the query,
// validate the body with the route's schema, run the handler, map errors to statuses and build the envelope. The fleet
// bridge calls it; the uWS server keeps its own streaming front end around the same route table and error map.
import { AppError } from '../errors';
import type { Logger } from '../log';
import { compileValidator, type Validator } from '../schemas/validate';
import { envelope } from './envelope';
import { httpErrorOf } from './error-status';
import type { ApiReply, ApiRequest, Route } from './route';

/** A route matched to a concrete path: its parameters (percent-decoded), query and envelope `module`. */
export interface ResolvedCall {
  route: Route;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The path below /api/v1, without the query. */
  module: string;
}

/** What a call carries besides its route: lower-cased headers, the parsed JSON body (undefined: none), the caller. */
export interface CallInput {
  headers: Record<string, string>;
  body: unknown;
  remoteAddress: string;
  signal: AbortSignal;
}

/** A status and the JSON body as HTTP would send it (the envelope, or the bare content of a bare route). */
export interface CallAnswer {
  status: number;
  body: unknown;
}

interface Compiled {
  route: Route;
  pattern: RegExp;
  paramNames: string[];
  validate?: Validator<never>;
}

/** Runs JSON API calls against a route table; never rejects: every failure is answered as its envelope. */
export class ApiDispatcher {
  private readonly compiled: Compiled[];

  constructor(routes: readonly Route[], private readonly logger: Logger) {
    this.compiled = routes.map((route) => ({
      route,
      pattern: new RegExp(`^${route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, '([^/]+)')}$`),
      paramNames: [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]),
      validate: route.body ? (compileValidator(route.body) as Validator<never>) : undefined,
    }));
  }

  /** The route of `method` and `pathAndQuery` (below /api/v1); throws NOT_FOUND (404) when none, as uWS answers. */
  resolve(method: string, pathAndQuery: string): ResolvedCall {
    const queryAt = pathAndQuery.indexOf('?');
    const path = queryAt === -1 ? pathAndQuery : pathAndQuery.slice(0, queryAt);
    const query = new URLSearchParams(queryAt === -1 ? '' : pathAndQuery.slice(queryAt + 1));
    const lower = method.toLowerCase();
    let best: { compiled: Compiled; values: string[] } | null = null;
    for (const compiled of this.compiled) {
      if (compiled.route.method !== lower) continue;
      const match = compiled.pattern.exec(path);
      // literal segments win over parameters, as in uWS
      if (match && (!best || compiled.paramNames.length < best.compiled.paramNames.length)) best = { compiled, values: match.slice(1) };
    }
    if (!best) throw new AppError('NOT_FOUND', `no route for ${method.toUpperCase()} ${path}`);
    const params: Record<string, string> = {};
    best.compiled.paramNames.forEach((name, i) => (params[name] = decodeParam(best.values[i], name)));
    return { route: best.compiled.route, params, query, module: path || '/' };
  }

  /** Validates the body and runs the handler of `call`; resolves with the answer HTTP would give. */
  async execute(call: ResolvedCall, input: CallInput): Promise<CallAnswer> {
    try {
      const compiled = this.compiled.find((c) => c.route === call.route);
      const body = input.body === undefined ? undefined : compiled?.validate ? compiled.validate(input.body) : input.body;
      if (input.body === undefined) compiled?.validate?.(undefined);
      const request: ApiRequest = {
        params: call.params,
        query: call.query,
        headers: input.headers,
        body,
        bodyKind: input.body === undefined ? 'none' : 'json',
        largeField: null,
        module: call.module,
        remoteAddress: input.remoteAddress,
        signal: input.signal,
      };
      return this.answer(call, await call.route.handler(request));
    } catch (err) {
      return this.failure(call.module, err);
    }
  }

  /** The answer of a handler's reply; a reply that is not JSON (a PNG) is not reachable this way (404). */
  answer(call: ResolvedCall, reply: ApiReply): CallAnswer {
    const status = reply.status ?? 200;
    if (reply.bytes !== undefined) return this.failure(call.module, new AppError('NOT_FOUND', `${call.module} answers ${reply.contentType}, not JSON`));
    const content = reply.contentJson !== undefined ? JSON.parse(reply.contentJson) : reply.content;
    return { status, body: call.route.bare ? content : envelope(status, call.module, reply.message, content) };
  }

  /** The error answer of `err` (as HTTP gives it): its code's status, and `content` or `{message}`; a bug is logged. */
  failure(module: string, err: unknown): CallAnswer {
    const answer = errorAnswer(module, err);
    if (answer.unexpected) this.logger.error('request failed', { module, error: err instanceof Error ? err.stack : String(err) });
    return { status: answer.status, body: answer.body };
  }
}

/** The answer to anything a handler threw, for HTTP and MQTT alike: status, envelope and extra headers; `unexpected` when it carries no code (a bug). */
export function errorAnswer(module: string, err: unknown): CallAnswer & { headers: Record<string, string>; unexpected: boolean } {
  const appError = err instanceof AppError ? err : null;
  const { status, message } = httpErrorOf(err);
  const content = appError?.content ?? { message: appError?.message ?? 'internal error; see the device log' };
  return { status, body: envelope(status, module, message, content), headers: appError?.headers ?? {}, unexpected: !appError };
}

function decodeParam(raw: string, name: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new AppError('INVALID_REQUEST', `${name} is not a valid URL-encoded value`);
  }
}
