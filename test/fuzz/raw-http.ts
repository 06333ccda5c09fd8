// A raw-socket HTTP/1.1 client for fuzzing: sends exact bytes (invalid ones included) and bounds every exchange by a timeout.
import net from 'node:net';

/** What came back for one request: a parsed response, a connection closed without one, or nothing within the limit. */
export type RawOutcome =
  | { kind: 'response'; status: number; headers: Record<string, string>; body: Buffer; ms: number }
  | { kind: 'closed'; received: Buffer; ms: number; error?: string }
  | { kind: 'timeout'; received: Buffer; ms: number };

/** How to send one request. */
export interface RawSend {
  port: number;
  bytes: Buffer;
  /** Source address (any 127.x.y.z), to appear as another client. */
  localAddress?: string;
  /** Half-close after writing (for requests that are incomplete on purpose, so the server sees the end). */
  endAfterWrite?: boolean;
  /** The exchange fails as a hang past this many milliseconds. */
  timeoutMs: number;
  /** A HEAD request: the response has no body whatever its Content-Length says. */
  head?: boolean;
}

/** Sends `bytes` on a fresh connection to 127.0.0.1 and resolves with the first response, a close, or a timeout. */
export function sendRaw(send: RawSend): Promise<RawOutcome> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port: send.port, localAddress: send.localAddress, noDelay: true });
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = (outcome: RawOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle({ kind: 'timeout', received, ms: elapsed() }), send.timeoutMs);
    socket.on('connect', () => {
      socket.write(send.bytes);
      if (send.endAfterWrite) socket.end();
    });
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const parsed = parseResponse(received, false, send.head);
      if (parsed) settle({ ...parsed, ms: elapsed() });
    });
    socket.on('error', (err) => settle(closedOrParsed(received, elapsed(), send.head, err.message)));
    socket.on('close', () => settle(closedOrParsed(received, elapsed(), send.head)));
  });
}

function closedOrParsed(received: Buffer, ms: number, head: boolean | undefined, error?: string): RawOutcome {
  const parsed = parseResponse(received, true, head);
  return parsed ? { ...parsed, ms } : { kind: 'closed', received, ms, error };
}

type Parsed = { kind: 'response'; status: number; headers: Record<string, string>; body: Buffer };

/** Parses one complete response from `data`; null while incomplete. `atEnd`: the connection closed (a body without length ends there). */
export function parseResponse(data: Buffer, atEnd: boolean, head = false): Parsed | null {
  const headEnd = data.indexOf('\r\n\r\n');
  if (headEnd < 0) return null;
  const [statusLine, ...lines] = data.subarray(0, headEnd).toString('latin1').split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!m) return null;
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(m[1]);
  const rest = data.subarray(headEnd + 4);
  if (status >= 100 && status < 200 && status !== 101) return parseResponse(rest, atEnd, head); // interim (100 Continue): the answer follows
  const body = head ? Buffer.alloc(0) : bodyOf(rest, headers, status, atEnd);
  return body ? { kind: 'response', status, headers, body } : null;
}

function bodyOf(rest: Buffer, headers: Record<string, string>, status: number, atEnd: boolean): Buffer | null {
  if (status === 204 || status === 304) return Buffer.alloc(0);
  if (headers['transfer-encoding']?.toLowerCase().includes('chunked')) return dechunk(rest);
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    return rest.length >= length ? rest.subarray(0, length) : null;
  }
  return atEnd ? rest : null;
}

function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size)) return null;
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return null;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
