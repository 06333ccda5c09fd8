// A minimal RFC 6455 client over net for tests (Node 20 has no stable WebSocket client): text frames, close, pong.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import net from 'node:net';

/** A frame the server sent, as the test sees it. */
export type Received = { kind: 'text'; text: string } | { kind: 'close'; code: number; reason: string };

/** The upgrade was refused: the HTTP answer instead of a socket. */
export interface Refused {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** An upgraded test socket; every wait fails after `limitMs` so no test hangs. */
export interface TestSocket {
  raw: net.Socket;
  sendText(text: string): void;
  sendBinary(bytes: Buffer): void;
  close(code: number, reason?: string): void;
  /** The next text or close frame; rejects after `limitMs` or when the connection ends first. */
  next(limitMs?: number): Promise<Received>;
  /** Resolves with the close frame's code (1006 when the connection ended without one). */
  closed(limitMs?: number): Promise<{ code: number; reason: string }>;
}

/** Opens `path` on 127.0.0.1:`port` with extra upgrade headers; resolves with a socket or the refusal. */
/** `localAddress` (any 127.x.y.z) makes the connection come from another client address. */
export function connectWs(port: number, path: string, headers: Record<string, string> = {}, limitMs = 5000, localAddress?: string): Promise<TestSocket | Refused> {
  return new Promise((resolve, reject) => {
    const raw = net.connect({ port, host: '127.0.0.1', localAddress });
    const timer = setTimeout(() => { raw.destroy(); reject(new Error(`no upgrade answer within ${limitMs} ms`)); }, limitMs);
    const extra = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    raw.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`);
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine, ...lines] = buffer.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(statusLine.split(' ')[1]);
      const head = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const rest = buffer.subarray(end + 4);
      if (status === 101) {
        raw.off('data', onData);
        clearTimeout(timer);
        resolve(upgraded(raw, rest));
        return;
      }
      const length = Number(head['content-length'] ?? 0);
      if (rest.length < length) return;
      raw.off('data', onData);
      clearTimeout(timer);
      raw.destroy();
      resolve({ status, headers: head, body: rest.subarray(0, length).toString('utf8') });
    };
    raw.on('data', onData);
    raw.on('error', (err) => { clearTimeout(timer); reject(err); });
  });
}

/** True when `answer` is an upgraded socket. */
export function isSocket(answer: TestSocket | Refused): answer is TestSocket {
  return 'sendText' in answer;
}

/** Opens `path` like connectWs and asserts the upgrade was not refused. */
export async function openWs(port: number, path: string, headers: Record<string, string>): Promise<TestSocket> {
  const answer = await connectWs(port, path, headers);
  assert.ok(isSocket(answer), JSON.stringify(answer));
  return answer;
}

/** The next text message, parsed; fails on a close frame. */
export async function nextJson(ws: TestSocket, limitMs?: number): Promise<any> {
  const frame = await ws.next(limitMs);
  assert.equal(frame.kind, 'text', JSON.stringify(frame));
  return JSON.parse((frame as { text: string }).text);
}

function upgraded(raw: net.Socket, initial: Buffer): TestSocket {
  const queue: Received[] = [];
  const waiters: Array<(r: Received | null) => void> = [];
  let ended = false;
  let buffer = initial;
  const push = (r: Received | null): void => {
    if (r === null) ended = true;
    const waiter = waiters.shift();
    if (waiter) waiter(r);
    else if (r) queue.push(r);
  };
  const parse = (): void => {
    for (let frame = readFrame(buffer); frame; frame = readFrame(buffer)) {
      buffer = buffer.subarray(frame.size);
      if (frame.opcode === 1) push({ kind: 'text', text: frame.payload.toString('utf8') });
      else if (frame.opcode === 8) push({ kind: 'close', code: frame.payload.length >= 2 ? frame.payload.readUInt16BE(0) : 1005, reason: frame.payload.subarray(2).toString('utf8') });
      else if (frame.opcode === 9) raw.write(encodeFrame(10, frame.payload));
    }
  };
  raw.on('data', (chunk: Buffer) => { buffer = Buffer.concat([buffer, chunk]); parse(); });
  raw.on('close', () => push(null));
  raw.on('error', () => undefined);
  parse();
  const next = (limitMs = 5000): Promise<Received> => {
    const ready = queue.shift();
    if (ready) return Promise.resolve(ready);
    if (ended) return Promise.reject(new Error('connection ended'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no frame within ${limitMs} ms`)), limitMs);
      waiters.push((r) => { clearTimeout(timer); if (r) resolve(r); else reject(new Error('connection ended')); });
    });
  };
  return {
    raw,
    sendText: (text) => raw.write(encodeFrame(1, Buffer.from(text))),
    sendBinary: (bytes) => raw.write(encodeFrame(2, bytes)),
    close: (code, reason = '') => {
      const payload = Buffer.alloc(2 + Buffer.byteLength(reason));
      payload.writeUInt16BE(code, 0);
      payload.write(reason, 2);
      raw.write(encodeFrame(8, payload));
    },
    next,
    async closed(limitMs = 5000) {
      const deadline = Date.now() + limitMs;
      for (;;) {
        const frame = await next(Math.max(1, deadline - Date.now())).catch((err: Error) => {
          if (err.message === 'connection ended') return { kind: 'close' as const, code: 1006, reason: '' };
          throw err;
        });
        if (frame.kind === 'close') return { code: frame.code, reason: frame.reason };
      }
    },
  };
}

function readFrame(buffer: Buffer): { opcode: number; payload: Buffer; size: number } | null {
  if (buffer.length < 2) return null;
  const opcode = buffer[0] & 0x0f;
  let length = buffer[1] & 0x7f;
  let offset = 2;
  if (length === 126) {
    if (buffer.length < 4) return null;
    length = buffer.readUInt16BE(2);
    offset = 4;
  } else if (length === 127) {
    if (buffer.length < 10) return null;
    length = Number(buffer.readBigUInt64BE(2));
    offset = 10;
  }
  if (buffer.length < offset + length) return null;
  return { opcode, payload: buffer.subarray(offset, offset + length), size: offset + length };
}

function encodeFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const length = payload.length;
  const header = length < 126 ? Buffer.from([0x80 | opcode, 0x80 | length]) : Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff]);
  const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]));
  return Buffer.concat([header, mask, masked]);
}
