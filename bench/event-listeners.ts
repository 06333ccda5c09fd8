// Child of bench/events.ts: holds N WebSocket clients on /api/v1/events and measures, for every job.state event each
// receives, the time from the event's emission (its `time`, ms resolution: an upper bound) to its arrival here.
// A lean frame reader (no per-frame promise) so that the clients cost the shared CPU as little as possible.
import { randomBytes } from 'node:crypto';
import net from 'node:net';

type Command = { cmd: 'open'; port: number; apiKey: string; count: number } | { cmd: 'reset' } | { cmd: 'stats' } | { cmd: 'close' };

let sockets: net.Socket[] = [];
let latencies: number[] = [];
let received = 0;

const TYPE = Buffer.from('"type":"job.state"');
const TIME = Buffer.from('"time":"');

/** Reads the emission time of a job.state event straight from the frame's bytes (no JSON.parse: the clients stay cheap). */
function onText(buf: Buffer, start: number, end: number, arrived: number): void {
  const type = buf.indexOf(TYPE, start);
  if (type < 0 || type >= end) return;
  const time = buf.indexOf(TIME, start);
  if (time < 0 || time >= end) return;
  received += 1;
  latencies.push(arrived - Date.parse(buf.toString('latin1', time + TIME.length, time + TIME.length + 24)));
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

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

process.on('message', (message: Command) => {
  void (async () => {
    if (message.cmd === 'open') sockets = await Promise.all(Array.from({ length: message.count }, () => connect(message.port, message.apiKey)));
    if (message.cmd === 'reset') {
      latencies = [];
      received = 0;
    }
    if (message.cmd === 'close') for (const s of sockets) s.destroy();
    if (message.cmd === 'stats') {
      const sorted = [...latencies].sort((a, b) => a - b);
      process.send!({ cmd: 'stats', received, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted.at(-1) ?? Number.NaN });
      return;
    }
    process.send!({ cmd: `${message.cmd}-done` });
  })().catch((err: Error) => process.send!({ cmd: 'error', message: err.message }));
});
