// The fast-check arbitrary of whole requests: every route and method, odd paths, bodies, headers and framing.
import fc from 'fast-check';
import { NO_HOST, type Framing, type FuzzRequest, type KeyMode, type Segment } from './fuzz-request';
import { anyRouteBody, createPrinterBody, extensionsBody, patchPrinterBody, printBody, settingsBody, shareBody } from './route-bodies';
import { hostileValue } from './values';

type Known = 'printer' | 'job' | 'share' | 'tag';

/** One route of the API: its path template (`{printer}` etc. stand for a known thing or a fuzzed segment) and its body. */
interface RouteShape {
  method: string;
  path: string;
  body?: fc.Arbitrary<unknown>;
  raw?: boolean;
}

/** Every route of src/http/routes/*.ts. */
export const ROUTES: RouteShape[] = [
  { method: 'GET', path: 'status' },
  { method: 'GET', path: 'printers' },
  { method: 'POST', path: 'printers', body: createPrinterBody },
  { method: 'GET', path: 'printers/{printer}' },
  { method: 'PATCH', path: 'printers/{printer}', body: patchPrinterBody },
  { method: 'DELETE', path: 'printers/{printer}' },
  { method: 'GET', path: 'discover' },
  { method: 'POST', path: 'print/{target}', body: printBody, raw: true },
  { method: 'POST', path: 'print/{target}/test' },
  { method: 'POST', path: 'preview/{target}', body: printBody, raw: true },
  { method: 'GET', path: 'jobs' },
  { method: 'GET', path: 'jobs/{job}' },
  { method: 'DELETE', path: 'jobs/{job}' },
  { method: 'GET', path: 'settings' },
  { method: 'PUT', path: 'settings', body: settingsBody },
  { method: 'POST', path: 'settings/api-key' },
  { method: 'GET', path: 'shares' },
  { method: 'POST', path: 'shares', body: shareBody },
  { method: 'PUT', path: 'shares/{share}', body: shareBody },
  { method: 'DELETE', path: 'shares/{share}' },
  { method: 'GET', path: 'extensions/settings' },
  { method: 'PUT', path: 'extensions/settings', body: extensionsBody },
  { method: 'GET', path: 'openapi.json' },
];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A fuzzed path segment: percent-encoding (valid or not), dot segments, bad UTF-8, NUL, long, URI forms. */
export const fuzzSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('..', '.', '', '%2e%2e', '%2F', '%00', '%ff', '%zz', '%', '%e2%82', '\xff\xfe', '\xc0\xaf', '\xed\xa0\x80', 'tag_', 'tag_front', 'tag_%00', 'tcp_127-0-0-1_9100', 'usb_sn_X', 'ipp_x', 'pj_000000000000', 'tcp%3A%2F%2F10.0.0.5%3A9100', 'ipp%3A%2F%2Fhost%3A631%2Fipp%2Fprint', 'null', 'undefined', '__proto__', 'constructor', 'openapi.json'),
  fc.string({ unit: 'grapheme-ascii', maxLength: 20 }).map((s) => encodeURIComponent(s)),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => Buffer.from(s, 'utf8').toString('latin1').replace(/[\x00-\x20\x7f/?#]/g, '_')),
  fc.integer({ min: 1000, max: 3500 }).map((n) => 'p'.repeat(n)),
  fc.integer({ min: 5000, max: 60_000 }).map((n) => 'p'.repeat(n)),
);

/** A segment standing for something the daemon made (a printer path, job id, share uuid, tag) or a fuzzed one. */
function slot(known: Known): fc.Arbitrary<Segment> {
  const pick = fc.record({ known: fc.constant(known), pick: fc.nat(1000), encode: fc.boolean() }) as fc.Arbitrary<Segment>;
  return fc.oneof({ weight: 3, arbitrary: pick }, { weight: 2, arbitrary: fuzzSegment });
}

function pathSegments(template: string): fc.Arbitrary<Segment[]> {
  const parts = template.split('/').map((part): fc.Arbitrary<Segment> => {
    if (part === '{printer}') return slot('printer');
    if (part === '{job}') return slot('job');
    if (part === '{share}') return slot('share');
    if (part === '{target}') return fc.oneof(slot('printer'), slot('tag'));
    return fc.constant(part);
  });
  return fc.tuple(...parts);
}

/** Bodies as bytes: JSON of the route's body, hostile JSON, invalid UTF-8, deep nesting, or raw bytes. */
function bodyBytes(route: RouteShape): fc.Arbitrary<string> {
  const json = (a: fc.Arbitrary<unknown>) => a.map((v) => Buffer.from(JSON.stringify(v) ?? 'null', 'utf8').toString('latin1'));
  return fc.oneof(
    { weight: 6, arbitrary: json(route.body ?? anyRouteBody) },
    { weight: 1, arbitrary: json(anyRouteBody) },
    { weight: 1, arbitrary: json(hostileValue) },
    { weight: 1, arbitrary: json(route.body ?? anyRouteBody).map(breakUtf8) },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 1, max: 50_000 }), fc.constantFrom('[', '{"a":', '[{"connection":')).map(([n, open]) => deep(n, open)) },
    { weight: 1, arbitrary: fc.constantFrom('', '{', 'nul', '{"a":1}{"b":2}', '\ufeff{}', '{"content":"x",}', '[]', '"str"', '1e999', '{"__proto__":{"x":1}}') },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')) },
    { weight: 1, arbitrary: fc.integer({ min: 100_000, max: 2_000_000 }).map((n) => `{"content":"${'A'.repeat(n)}","contentType":"raw_base64","wait":false}`) },
  );
}

/** Puts invalid UTF-8 (a lone continuation byte, an overlong slash, an encoded surrogate, 0xFF) inside the JSON text. */
function breakUtf8(json: string): string {
  const at = Math.max(1, json.indexOf('"') + 1);
  return `${json.slice(0, at)}\x80\xc0\xaf\xed\xa0\x80\xff${json.slice(at)}`;
}

function deep(n: number, open: string): string {
  const close = open === '[' ? ']' : open === '{"a":' ? '}' : '}]';
  return open.repeat(n) + '1' + close.repeat(n);
}

const contentTypes = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/vnd.x+json', 'application/octet-stream', 'text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', ';', 'application/json;;;', '*/*', 'application/json, text/plain', `application/json; ${'p=1; '.repeat(500)}`);

/** Extra request headers: content types, hostile values, origins, idempotency keys, repeated and very long headers. */
const extraHeaders: fc.Arbitrary<Array<[string, string]>> = fc.array(
  fc.oneof(
    contentTypes.map((v): [string, string] => ['Content-Type', v]),
    fc.constantFrom<[string, string]>(['Origin', 'https://evil.example'], ['Origin', 'null'], ['Access-Control-Request-Private-Network', 'true'], ['Connection', 'close'], ['Connection', 'keep-alive, upgrade'], ['Upgrade', 'websocket'], ['Expect', '100-continue'], ['Accept', '*/*'], ['Accept-Encoding', 'gzip, br'], ['X-Forwarded-For', '1.2.3.4']),
    fc.tuple(fc.constantFrom('Idempotency-Key', 'Origin', 'User-Agent', 'X-Fuzz', 'Content-Type'), fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((s) => s.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, ''))),
    fc.tuple(fc.constantFrom('Idempotency-Key', 'Origin', 'X-Long'), fc.integer({ min: 300, max: 3000 }).map((n) => 'v'.repeat(n))),
    fc.tuple(fc.constantFrom('Idempotency-Key', 'Origin', 'X-Long'), fc.integer({ min: 5000, max: 60_000 }).map((n) => 'v'.repeat(n))),
    fc.tuple(fc.constantFrom('Idempotency-Key', 'Origin'), fc.constantFrom('\xff\xfe', '\xc3\x28', 'é', '\x80')),
  ),
  { maxLength: 6 },
);

const keyMode: fc.Arbitrary<KeyMode> = fc.oneof(
  { weight: 20, arbitrary: fc.constant<KeyMode>('valid') },
  { weight: 1, arbitrary: fc.constantFrom<KeyMode>('missing', 'wrong', 'padded', 'lowercase-name', 'duplicated', 'empty', 'huge') },
);

const framing: fc.Arbitrary<Framing> = fc.oneof(
  { weight: 12, arbitrary: fc.constant<Framing>('exact') },
  { weight: 2, arbitrary: fc.constantFrom<Framing>('none', 'chunked') },
  { weight: 2, arbitrary: fc.constantFrom<Framing>('short', 'long', 'garbage', 'huge', 'duplicated', 'chunked+length') },
);

const PROTOCOL_FRAMINGS: Framing[] = ['short', 'long', 'garbage', 'huge', 'duplicated', 'chunked+length'];

/** Well-formed HTTP/1.1 requests (they must get an envelope) to a route, with any method on its path now and then. */
/** Routes that reach printers and the spooler come up more often: they have the most to get wrong. */
const route = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...ROUTES.filter((r) => r.path.startsWith('print') || (r.method === 'POST' && r.path === 'printers'))) },
  { weight: 4, arbitrary: fc.constantFrom(...ROUTES) },
);

const apiRequest: fc.Arbitrary<FuzzRequest> = route.chain((route) =>
  fc.record({
    method: fc.oneof({ weight: 8, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS) }),
    segments: pathSegments(route.path),
    prefix: fc.oneof({ weight: 30, arbitrary: fc.constant('/api/v1') }, { weight: 1, arbitrary: fc.constantFrom('', '/api/v2', '/API/V1', '/api/v1/', '/api/v1/..', '/api//v1', '/api/v1%2F') }),
    query: fc.option(fc.oneof(fc.constantFrom('wait=false', 'wait=maybe', 'title=t&source=s&idempotencyKey=k', '%ff=%zz', 'a=\xff', '&&&=', 'wait=false&wait=true'), fc.string({ unit: 'grapheme-ascii', maxLength: 30 }).map((s) => encodeURIComponent(s))), { freq: 4 }),
    headers: fc.tuple(route.raw ? fc.constantFrom('application/json', 'application/octet-stream') : fc.constant('application/json'), extraHeaders).map(([ct, extra]) => [['Content-Type', ct] as [string, string], ...extra]),
    body: route.body || route.method !== 'GET' ? bodyBytes(route) : fc.constant(''),
    key: keyMode,
    framing,
    protocol: fc.constant(false),
    source: fc.tuple(fc.integer({ min: 1, max: 254 }), fc.nat(255), fc.integer({ min: 1, max: 254 })),
  }),
).map(classify);

/** Requests malformed at the HTTP level: bad request lines, control bytes, bare LF, too many headers, no Host. */
const protocolRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(apiRequest, fc.constantFrom('nul-in-target', 'space-in-target', 'ctl-in-header', 'bare-lf', 'many-headers', 'no-colon', 'lower-method', 'odd-method', 'absolute-uri', 'giant-header', 'no-host'))
  .map(([req, how]) => breakProtocol(req, how));

/** Every kind of request the fuzzer sends. */
export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof({ weight: 9, arbitrary: apiRequest }, { weight: 1, arbitrary: protocolRequest });

/**
 * uWS takes a request head of at most 4 KiB once it arrives in more than one read (up to ~64 KiB in one read on
 * loopback) and closes the connection without an answer beyond: a longer head is an HTTP-level abuse, like bad framing.
 */
const MAX_RELIABLE_HEAD = 4000;

/** Marks a request as protocol-level when its framing is malformed on purpose or its head is over what uWS takes. */
function classify(req: FuzzRequest): FuzzRequest {
  const headBytes = 200 + (req.query?.length ?? 0) + req.headers.reduce((n, [k, v]) => n + k.length + v.length + 4, 0) + req.segments.reduce<number>((n, s) => n + (typeof s === 'string' ? s.length + 1 : 40), 0);
  const protocol = PROTOCOL_FRAMINGS.includes(req.framing) || req.key === 'huge' || headBytes > MAX_RELIABLE_HEAD;
  return { ...req, protocol };
}

function breakProtocol(req: FuzzRequest, how: string): FuzzRequest {
  const broken = { ...req, protocol: true };
  switch (how) {
    case 'nul-in-target': return { ...broken, segments: [...req.segments, 'a\x00b'] };
    case 'space-in-target': return { ...broken, segments: [...req.segments, 'a b'] };
    case 'ctl-in-header': return { ...broken, headers: [...req.headers, ['X-Ctl', 'a\x01\x1b[0m']] };
    case 'bare-lf': return { ...broken, headers: [...req.headers, ['X-Lf', 'a\nX-Injected: 1']] };
    case 'many-headers': return { ...broken, headers: [...req.headers, ...Array.from({ length: 60 }, (_, i): [string, string] => [`X-H${i}`, 'v'])] };
    case 'no-colon': return { ...broken, headers: [...req.headers, ['NoColon\r\nX-After', 'x']] };
    case 'lower-method': return { ...broken, method: req.method.toLowerCase() };
    case 'odd-method': return { ...broken, method: 'FUZZ' };
    case 'absolute-uri': return { ...broken, prefix: 'http://127.0.0.1/api/v1' };
    case 'giant-header': return { ...broken, headers: [...req.headers, ['X-Giant', 'g'.repeat(300_000)]] };
    case 'no-host': return { ...broken, headers: [...req.headers, [NO_HOST, '1']] };
  }
  return broken;
}
