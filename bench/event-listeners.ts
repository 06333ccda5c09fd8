// Child of bench/events.ts: holds N WebSocket clients on /api/v1/events and measures, for every job.state event each
// receives, the time from the event's emission (its `time`, ms resolution: an upper bound) to its arrival here.
// A lean frame reader (no per-frame promise, no JSON.parse) that allocates nothing per frame: the emission time is read
// from the frame's bytes and each latency goes into a fixed histogram, so this process's own GC pauses never show up
// as event latency, and the clients cost the shared CPU as little as possible.
import { randomBytes } from 'node:crypto';
import net from 'node:net';

type Command = { cmd: 'open'; port: number; apiKey: string; count: number } | { cmd: 'reset' } | { cmd: 'stats' } | { cmd: 'close' };

/** Histogram bin width, ms, and the number of bins (latencies past the last bin land in it). */
const BIN_MS = 0.05;
const BINS = 40_000;

let sockets: net.Socket[] = [];
const histogram = new Uint32Array(BINS);
let received = 0;
let max = 0;

const TYPE = Buffer.from('"type":"job.state"');
const TIME = Buffer.from('"time":"');
/** The day of the last time read ("YYYY-MM-DD") and its epoch ms, so a time is read without making a string. */
const day = Buffer.alloc(10);
let dayMs = Number.NaN;

function digits(buf: Buffer, at: number, count: number): number {
  let n = 0;
  for (let i = 0; i < count; i += 1) n = n * 10 + buf[at + i] - 48;
  return n;
}

/** Epoch ms of the ISO time `YYYY-MM-DDTHH:MM:SS.mmmZ` at `at` in `buf`. */
function isoMs(buf: Buffer, at: number): number {
  if (Number.isNaN(dayMs) || buf.compare(day, 0, 10, at, at + 10) !== 0) {
    buf.copy(day, 0, at, at + 10);
    dayMs = Date.parse(`${day.toString('latin1')}T00:00:00.000Z`);
  }
  return dayMs + digits(buf, at + 11, 2) * 3_600_000 + digits(buf, at + 14, 2) * 60_000 + digits(buf, at + 17, 2) * 1000 + digits(buf, at + 20, 3);
}

/** Counts the latency of a job.state event from the frame's bytes. */
function onText(buf: Buffer, start: number, end: number, arrived: number): void {
  const type = buf.indexOf(TYPE, start);
  if (type < 0 || type >= end) return;
  const time = buf.indexOf(TIME, start);
  if (time < 0 || time >= end) return;
  const latency = arrived - isoMs(buf, time + TIME.length);
  received += 1;
  if (latency > max) max = latency;
  histogram[Math.min(BINS - 1, Math.max(0, Math.floor(latency / BIN_MS)))] += 1;
}

/** Reads server frames (unmasked, text) from `socket` after its 101 answer. */
function readFrames(socket: net.Socket): void {
  let pending: Buffer | null = null;
  let upgraded = false;
  socket.on('data', (chunk: Buffer) => {
    const arrived = performance.timeOrigin + performance.now();
    let buf = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
    if (!upgraded) {
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return void (pending = buf);
      upgraded = true;
      buf = buf.subarray(end + 4);
    }
    let at = 0;
    while (buf.length - at >= 2) {
      let length = buf[at + 1] & 0x7f;
      let head = 2;
      if (length === 126) {
        if (buf.length - at < 4) break;
        length = buf.readUInt16BE(at + 2);
        head = 4;
      } else if (length === 127) {
        if (buf.length - at < 10) break;
        length = Number(buf.readBigUInt64BE(at + 2));
        head = 10;
      }
      if (buf.length - at < head + length) break;
      if ((buf[at] & 0x0f) === 1) onText(buf, at + head, at + head + length, arrived);
      at += head + length;
    }
    if (at < buf.length) pending = buf.subarray(at);
  });
}

function connect(port: number, apiKey: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => {
      socket.write(
        `GET /api/v1/events?types=job.state HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\nX-API-Key: ${apiKey}\r\n\r\n`,
      );
      readFrames(socket);
      socket.once('data', (first: Buffer) => (first.toString('latin1').startsWith('HTTP/1.1 101') ? resolve(socket) : reject(new Error(first.toString('latin1').split('\r\n')[0]))));
    });
    socket.on('error', reject);
  });
}

/** The upper edge of the histogram bin holding the `p`th percentile, ms. */
function percentile(p: number): number {
  if (received === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * received);
  let seen = 0;
  for (let i = 0; i < BINS; i += 1) {
    seen += histogram[i];
    if (seen >= rank) return (i + 1) * BIN_MS;
  }
  return max;
}

process.on('message', (message: Command) => {
  void (async () => {
    if (message.cmd === 'open') sockets = await Promise.all(Array.from({ length: message.count }, () => connect(message.port, message.apiKey)));
    if (message.cmd === 'reset') {
      histogram.fill(0);
      received = 0;
      max = 0;
    }
    if (message.cmd === 'close') for (const s of sockets) s.destroy();
    if (message.cmd === 'stats') {
      process.send!({ cmd: 'stats', received, p50: percentile(50), p99: percentile(99), max: received === 0 ? Number.NaN : max });
      return;
    }
    process.send!({ cmd: `${message.cmd}-done` });
  })().catch((err: Error) => process.send!({ cmd: 'error', message: err.message }));
});
