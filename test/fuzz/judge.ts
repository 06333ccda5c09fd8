// Judges one answer: a well-formed envelope (seed section 7) with a 2xx or 4xx, a documented 5xx of a print route, or a failure.
import type { RawOutcome } from './raw-http';
import type { FuzzRequest, RenderedRequest } from './fuzz-request';

/** How an answer counts: `ok`, `documented-5xx` (allowed, counted), `known-finding` (reported in findings.test.ts, counted), or `fail`. */
export type Verdict = { kind: 'ok' } | { kind: 'documented-5xx' } | { kind: 'known-finding'; id: string } | { kind: 'fail'; reason: string };

/**
 * Finding F1 (test/fuzz/findings.test.ts): with `Connection: close`, an answer given before the body is read (401, 404,
 * a GET with a body) is followed by a close with the body unread; the kernel resets the connection and the client
 * gets EPIPE/ECONNRESET instead of the answer. Only a body larger than the socket buffers shows it.
 */
const F1_MIN_BODY = 256 * 1024;

/** 5xx answers decisions.md prescribes for print routes, by status and `result.message`; nothing else may be 5xx. */
const DOCUMENTED_5XX: Record<number, string[]> = {
  502: ['Print failed'],
  503: ['Printer is not ready', 'Device is busy'],
  507: ['Device cannot store the job'],
};

/** The verdict on `outcome` for `req` as rendered. */
export function judge(req: FuzzRequest, rendered: RenderedRequest, outcome: RawOutcome): Verdict {
  if (outcome.kind === 'timeout') return fail(`no answer and no close within ${Math.round(outcome.ms)} ms (hang)`);
  if (outcome.kind === 'closed' && isF1(req, outcome.error)) return { kind: 'known-finding', id: 'F1' };
  if (outcome.kind === 'closed') return req.protocol ? OK : fail(`connection closed without an answer${outcome.error ? ` (${outcome.error})` : ''}`);
  if (req.protocol && isUwsRefusal(outcome)) return OK;
  if (outcome.status >= 500) return judgeServerError(req, outcome);
  if (outcome.status < 200 || (outcome.status >= 300 && outcome.status < 400)) return fail(`status ${outcome.status} is neither 2xx nor 4xx`);
  if (req.method === 'HEAD' || req.method === 'OPTIONS' || outcome.status === 204) return OK;
  if (req.protocol && !outcome.headers['content-type']?.includes('json')) return OK; // the HTTP layer's own 4xx
  if (isOpenApi(req, outcome)) return OK;
  if (isPreview(req, outcome) || isConsolePage(req, outcome)) return OK;
  return judgeEnvelope(outcome.status, outcome.body, rendered.module);
}

const OK: Verdict = { kind: 'ok' };

function isF1(req: FuzzRequest, error: string | undefined): boolean {
  const close = req.headers.some(([n, v]) => n.toLowerCase() === 'connection' && v.toLowerCase().includes('close'));
  return close && req.body.length >= F1_MIN_BODY && /EPIPE|ECONNRESET/.test(error ?? '');
}

function fail(reason: string): Verdict {
  return { kind: 'fail', reason };
}

function judgeServerError(req: FuzzRequest, outcome: Extract<RawOutcome, { kind: 'response' }>): Verdict {
  const envelope = judgeEnvelope(outcome.status, outcome.body, null);
  if (envelope.kind === 'fail') return fail(`${outcome.status} and ${envelope.reason}`);
  const message = parse(outcome.body)?.result?.message;
  const printRoute = req.method === 'POST' && typeof req.segments[0] === 'string' && (req.segments[0] === 'print' || req.segments[0] === 'preview');
  if (printRoute && DOCUMENTED_5XX[outcome.status]?.includes(message)) return { kind: 'documented-5xx' };
  return fail(`5xx: ${outcome.status} ${JSON.stringify(message)}`);
}

/** uWS's own refusal of a head it will not parse (issue 35, decided): 400, 431 or 505, HTML, with Connection: close. */
function isUwsRefusal(outcome: Extract<RawOutcome, { kind: 'response' }>): boolean {
  return [400, 431, 505].includes(outcome.status) && outcome.headers.connection?.toLowerCase() === 'close' && !outcome.headers['content-type']?.includes('json');
}

/** A preview's PNG (POST /preview/{target}, 200 image/png). */
function isPreview(req: FuzzRequest, outcome: Extract<RawOutcome, { kind: 'response' }>): boolean {
  return outcome.status === 200 && req.method === 'POST' && req.segments[0] === 'preview' && outcome.headers['content-type'] === 'image/png';
}

/** The web console's page: GET or HEAD of a path outside /api/, answered index.html (the console is a single-page app). */
function isConsolePage(req: FuzzRequest, outcome: Extract<RawOutcome, { kind: 'response' }>): boolean {
  return outcome.status === 200 && (req.method === 'GET' || req.method === 'HEAD') && !req.prefix.startsWith('/api/') && Boolean(outcome.headers['content-type']?.startsWith('text/html'));
}

function isOpenApi(req: FuzzRequest, outcome: Extract<RawOutcome, { kind: 'response' }>): boolean {
  return outcome.status === 200 && req.method === 'GET' && typeof parse(outcome.body)?.openapi === 'string';
}

/** Checks seed section 7: status/statusCode/result.module/message/content, and `content.message` on errors. */
export function judgeEnvelope(status: number, body: Buffer, expectedModule: string | null): Verdict {
  const env = parse(body);
  if (env === undefined) return fail(`body is not JSON: ${JSON.stringify(body.subarray(0, 200).toString('latin1'))}`);
  if (typeof env !== 'object' || env === null || typeof env.result !== 'object' || env.result === null) return fail('body is not an envelope object with result');
  if (env.statusCode !== status) return fail(`statusCode ${env.statusCode} differs from HTTP ${status}`);
  if (env.status !== (status < 400 ? 'success' : 'error')) return fail(`status "${env.status}" for HTTP ${status}`);
  const { module, message } = env.result;
  if (typeof module !== 'string' || typeof message !== 'string' || !('content' in env.result)) return fail('result.module, result.message or result.content missing');
  if (expectedModule !== null && /^[\x21-\x7e]*$/.test(expectedModule) && module !== expectedModule) return fail(`result.module ${JSON.stringify(module)}, expected ${JSON.stringify(expectedModule)}`);
  if (status >= 400 && !errorContentOk(env.result.content)) return fail(`error content has no message: ${JSON.stringify(env.result.content)}`);
  return OK;
}

/** An error's content names what was wrong (`message`), or is the readiness object of a 503 (`errors`). */
function errorContentOk(content: unknown): boolean {
  if (typeof content !== 'object' || content === null) return false;
  const c = content as { message?: unknown; errors?: unknown };
  return typeof c.message === 'string' || Array.isArray(c.errors);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function parse(body: Buffer): any {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return undefined;
  }
}
