// Raw HTTP/1.1 over net for edge-case tests: exact request bytes, answers parsed by hand, every wait bounded by events.
import net from 'node:net';
import tls from 'node:tls';

/** One parsed answer. */
export interface RawResponse {
  status: number;
  /** Header lines in order, names lower-cased (repeats kept). */
  headers: Array<[string, string]>;
  body: string;
}

/** What came back: the answers, whether the server closed, and after how long. */
export interface RawOutcome {
  responses: RawResponse[];
  /** Bytes after the last complete answer (should be none). */
  rest: string;
  closed: boolean;
  ms: number;
}

/**
 * Sends `bytes` on a fresh connection to 127.0.0.1:`port`, then resolves once `expect.answers` answers are complete
 * (HEAD answers counted as bodiless by `expect.bodiless`) or the server closes; fails after `limitMs` otherwise.
 * With `expect.close`, it waits for the close even after the answers. With `expect.pieceBytes`, the bytes go in writes of
 * that many bytes, each after the one before has been flushed. With `expect.tls`, over TLS.
 */
export function rawExchange(port: number, bytes: string | Buffer, expect: { answers: number; close?: boolean; bodiless?: number[]; pieceBytes?: number; tls?: boolean }, limitMs = 5000): Promise<RawOutcome> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    // the device's certificate is self-signed: this client checks the exchange, not the certificate
    const socket = expect.tls ? tls.connect({ port, host: '127.0.0.1', rejectUnauthorized: false }) : net.connect(port, '127.0.0.1');
    let data = Buffer.alloc(0);
    const finish = (closed: boolean): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponses(data, expect.bodiless ?? []), closed, ms: Date.now() - started });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`within ${limitMs} ms: ${expect.close ? 'no close' : `not ${expect.answers} answers`}; got ${JSON.stringify(data.toString('latin1'))}`));
    }, limitMs);
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (!expect.close && parseResponses(data, expect.bodiless ?? []).responses.length >= expect.answers) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => undefined);
    writePieces(socket, Buffer.from(bytes), expect.pieceBytes ?? Infinity);
  });
}

function writePieces(socket: net.Socket, bytes: Buffer, size: number): void {
  if (bytes.length <= size) {
    socket.write(bytes);
    return;
  }
  socket.write(bytes.subarray(0, size), (err) => {
    if (!err) writePieces(socket, bytes.subarray(size), size);
  });
}

function parseResponses(data: Buffer, bodiless: number[]): { responses: RawResponse[]; rest: string } {
  const responses: RawResponse[] = [];
  let text = data.toString('latin1');
  for (;;) {
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) break;
    const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
    const headers = lines.map((l): [string, string] => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]);
    const length = bodiless.includes(responses.length) ? 0 : Number(headers.find(([n]) => n === 'content-length')?.[1] ?? 0);
    if (text.length < end + 4 + length) break;
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4, end + 4 + length) });
    text = text.slice(end + 4 + length);
  }
  return { responses, rest: text };
}

/** The value of the only `name` header; fails when it is missing or repeated. */
export function header(response: RawResponse, name: string): string {
  const values = response.headers.filter(([n]) => n === name).map(([, v]) => v);
  if (values.length !== 1) throw new Error(`expected one ${name} header, got ${JSON.stringify(values)}`);
  return values[0];
}
