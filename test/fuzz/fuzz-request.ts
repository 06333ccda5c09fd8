// One fuzz request as data (printable, shrinkable) and its rendering into exact bytes against the live state of a run.

/** A path segment: literal text (latin1 bytes, sent as is), or a pick among things the daemon made during the run. */
export type Segment = string | { known: 'printer' | 'job' | 'share' | 'tag'; pick: number; encode: boolean };

/** How the API key is presented. `valid` is the only form sent from 127.0.0.1; the rest come from other loopback addresses. */
export type KeyMode = 'valid' | 'missing' | 'wrong' | 'padded' | 'lowercase-name' | 'duplicated' | 'empty' | 'huge';

/** How the body is framed: exact Content-Length, none, chunked, or a mismatch (short/long/garbage/huge/duplicated). */
export type Framing = 'exact' | 'none' | 'chunked' | 'short' | 'long' | 'garbage' | 'huge' | 'duplicated' | 'chunked+length';

/** A request before rendering; every byte string is latin1 (one char per byte). */
export interface FuzzRequest {
  method: string;
  /** Segments after `prefix` and a `/`, joined with `/`. */
  segments: Segment[];
  /** `/api/v1` normally; an absolute URI or another prefix when the request line is fuzzed. */
  prefix: string;
  /** Raw query string without `?`, or null. */
  query: string | null;
  headers: Array<[string, string]>;
  body: string;
  key: KeyMode;
  framing: Framing;
  /** Malformed at the HTTP level on purpose: sent half-closed, and a close without an answer is acceptable. */
  protocol: boolean;
  /** Source address octets 127.a.b.c for a request not carrying the valid key (never 127.0.0.1). */
  source: [number, number, number];
}

/** What rendering needs to know of the run: the current key and what the daemon has made so far. */
export interface RunState {
  key: string;
  printers: string[];
  jobs: string[];
  shares: string[];
  tags: string[];
}

/** A request ready to send: bytes, source address, and whether it must be half-closed. */
export interface RenderedRequest {
  bytes: Buffer;
  localAddress: string;
  endAfterWrite: boolean;
  head: boolean;
  /** The path below /api/v1 as sent (latin1), without the query: what `result.module` should say. */
  module: string | null;
}

/** Renders `req` with the run's state into the bytes sent on the wire. */
export function renderRequest(req: FuzzRequest, state: RunState): RenderedRequest {
  const path = req.segments.map((s) => segmentText(s, state)).join('/');
  const target = `${req.prefix}/${path}${req.query === null ? '' : `?${req.query}`}`;
  const lines = [`${req.method} ${target} HTTP/1.1`, ...hostHeader(req), ...keyHeaders(req.key, state.key), ...req.headers.map(([n, v]) => `${n}: ${v}`)];
  const { framingHeaders, payload } = frame(req.body, req.framing);
  const head = [...lines, ...framingHeaders].join('\r\n') + '\r\n\r\n';
  return {
    bytes: Buffer.concat([Buffer.from(head, 'latin1'), payload]),
    localAddress: req.key === 'valid' ? '127.0.0.1' : `127.${req.source.join('.')}`,
    endAfterWrite: req.protocol,
    head: req.method === 'HEAD',
    module: req.prefix === '/api/v1' ? `/${path}` : null,
  };
}

/** A printable, replayable form of the bytes of a request (JSON string escapes for every non-printable byte). */
export function showBytes(bytes: Buffer, max = 2000): string {
  const text = bytes.subarray(0, max).toString('latin1');
  return JSON.stringify(text) + (bytes.length > max ? ` …(${bytes.length} bytes in all)` : '');
}

/** A header name that, when present, makes the request go without a Host header (it is sent itself, harmlessly). */
export const NO_HOST = 'X-Fuzz-No-Host';

function hostHeader(req: FuzzRequest): string[] {
  return req.headers.some(([n]) => n === NO_HOST) ? [] : ['Host: 127.0.0.1'];
}

function segmentText(segment: Segment, state: RunState): string {
  if (typeof segment === 'string') return segment;
  const pool = { printer: state.printers, job: state.jobs, share: state.shares, tag: state.tags }[segment.known];
  if (pool.length === 0) return segment.known === 'tag' ? 'tag_none' : 'none';
  const value = pool[segment.pick % pool.length];
  const text = segment.known === 'tag' ? `tag_${value}` : value;
  return segment.encode ? encodeURIComponent(text) : Buffer.from(text, 'utf8').toString('latin1');
}

function keyHeaders(mode: KeyMode, key: string): string[] {
  switch (mode) {
    case 'valid': return [`X-API-Key: ${key}`];
    case 'missing': return [];
    case 'wrong': return [`X-API-Key: ${key.slice(0, -1)}x`];
    case 'padded': return [`X-API-Key:   ${key}\t `];
    case 'lowercase-name': return [`x-api-key: ${key}`];
    case 'duplicated': return [`X-API-Key: wrong`, `X-API-Key: ${key}`];
    case 'empty': return ['X-API-Key: '];
    case 'huge': return [`X-API-Key: ${key.repeat(2000)}`];
  }
}

function frame(body: string, framing: Framing): { framingHeaders: string[]; payload: Buffer } {
  const payload = Buffer.from(body, 'latin1');
  const n = payload.length;
  switch (framing) {
    case 'exact': return { framingHeaders: [`Content-Length: ${n}`], payload };
    case 'none': return { framingHeaders: [], payload: Buffer.alloc(0) };
    case 'chunked': return { framingHeaders: ['Transfer-Encoding: chunked'], payload: chunked(payload) };
    case 'short': return { framingHeaders: [`Content-Length: ${n + 17}`], payload };
    case 'long': return { framingHeaders: [`Content-Length: ${Math.max(0, n - 3)}`], payload };
    case 'garbage': return { framingHeaders: ['Content-Length: 1e3x'], payload };
    case 'huge': return { framingHeaders: ['Content-Length: 99999999999999999999'], payload };
    case 'duplicated': return { framingHeaders: [`Content-Length: ${n}`, `Content-Length: ${n + 1}`], payload };
    case 'chunked+length': return { framingHeaders: [`Content-Length: ${n}`, 'Transfer-Encoding: chunked'], payload: chunked(payload) };
  }
}

function chunked(payload: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < payload.length; at += 4096) {
    const piece = payload.subarray(at, at + 4096);
    parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`, 'latin1'), piece, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}
