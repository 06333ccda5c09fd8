// Raw TCP (port 9100) transport: bounded connect, backpressure-aware writes, stall detection, status queries.
import net from 'node:net';
import { DeviceError } from '../errors';
import { pieces } from './pieces';
import type { SendResult, Transport, TransportTimeouts } from './transport';

/** Where and how patiently to talk to the printer; times in ms. `connect` is injectable (defaults to net.connect). */
export interface TcpTransportOptions {
  host: string;
  port: number;
  connectTimeoutMs: number;
  /** No write progress for this long fails the send as a stalled printer. */
  idleTimeoutMs: number;
  /** After our FIN, how long to wait for the printer to close; a printer that keeps the socket open counts as delivered. */
  closeWaitMs: number;
  connect?: (options: net.NetConnectOpts) => net.Socket;
}

const CHUNK = 64 * 1024;

/** A Transport over one TCP connection per call. */
export class TcpTransport implements Transport {
  readonly describe: string;
  private readonly connectFn: (options: net.NetConnectOpts) => net.Socket;

  constructor(private readonly options: TcpTransportOptions) {
    this.describe = `tcp ${options.host}:${options.port}`;
    this.connectFn = options.connect ?? net.connect;
  }

  /** Sends every byte, then half-closes and waits for the printer to close; failures are DeviceErrors with byte counts. */
  async send(data: Uint8Array, signal?: AbortSignal, repeat = 1): Promise<SendResult> {
    const socket = await this.open(signal);
    const total = data.length * repeat;
    try {
      await this.writeAll(socket, data, repeat, signal);
      await this.finish(socket, total);
      socket.destroy();
      return { bytes: total };
    } catch (err) {
      // a failed or cancelled send aborts the connection (RST): a graceful close would leave the kernel holding the
      // unsent bytes for a printer that stopped reading, and the connection open on both sides for minutes
      socket.resetAndDestroy();
      throw err;
    }
  }

  /** Writes `command` and gathers the reply until `complete` says so; null on silence; DeviceError when the connection fails. */
  async query(command: Uint8Array, complete: (reply: Buffer) => boolean, timeoutMs: number): Promise<Buffer | null> {
    const socket = await this.open();
    try {
      return await new Promise<Buffer | null>((resolve, reject) => {
        let reply = Buffer.alloc(0);
        const timer = setTimeout(() => resolve(null), timeoutMs);
        const settle = (fn: () => void) => {
          clearTimeout(timer);
          fn();
        };
        socket.on('data', (chunk: Buffer) => {
          reply = Buffer.concat([reply, chunk]);
          if (complete(reply)) settle(() => resolve(reply));
        });
        socket.once('error', (err: NodeJS.ErrnoException) => settle(() => reject(this.error(err, 0, command.length))));
        socket.once('close', () => settle(() => resolve(complete(reply) ? reply : null)));
        socket.write(command);
      });
    } finally {
      socket.destroy();
    }
  }

  private open(signal?: AbortSignal): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(new DeviceError('CANCELED', 'Canceled'));
        return;
      }
      const socket = this.connectFn({ host: this.options.host, port: this.options.port });
      socket.setNoDelay(true);
      const fail = (err: DeviceError) => {
        cleanup();
        socket.destroy();
        reject(err);
      };
      const timer = setTimeout(() => fail(new DeviceError('CONNECT_TIMEOUT', `${this.describe}: no connection within ${this.options.connectTimeoutMs} ms (printer off or unreachable)`)), this.options.connectTimeoutMs);
      const onError = (err: NodeJS.ErrnoException) => fail(this.error(err, 0, 0));
      const onAbort = () => fail(new DeviceError('CANCELED', 'Canceled'));
      const cleanup = () => {
        clearTimeout(timer);
        socket.off('error', onError);
        signal?.removeEventListener('abort', onAbort);
      };
      socket.once('error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.once('connect', () => {
        cleanup();
        resolve(socket);
      });
    });
  }

  private writeAll(socket: net.Socket, data: Uint8Array, repeat: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      let offset = 0;
      let finished = false;
      let idle: NodeJS.Timeout | undefined;
      const total = data.length * repeat;
      const next = pieces(data, repeat, CHUNK);
      const accepted = () => Math.max(0, socket.bytesWritten - socket.writableLength);
      const done = (err?: DeviceError) => {
        if (finished) return;
        finished = true;
        clearTimeout(idle);
        socket.off('error', onError);
        socket.off('drain', pump);
        signal?.removeEventListener('abort', onAbort);
        if (err) reject(err);
        else resolve();
      };
      const armIdle = () => {
        clearTimeout(idle);
        idle = setTimeout(() => done(new DeviceError('WRITE_TIMEOUT', `${this.describe}: the printer stopped reading (no progress for ${this.options.idleTimeoutMs / 1000} s) after ${accepted()} of ${total} bytes`, accepted())), this.options.idleTimeoutMs);
      };
      const onError = (err: NodeJS.ErrnoException) => done(this.error(err, accepted(), total));
      const onAbort = () => done(new DeviceError('CANCELED', 'Canceled', accepted()));
      function pump(): void {
        if (finished) return;
        armIdle();
        while (offset < total) {
          const piece = next.next().value as Uint8Array;
          const end = offset + piece.length;
          // the last chunk's callback runs once everything was handed to the kernel
          const more = socket.write(piece, end === total ? (err) => err || done() : undefined);
          offset = end;
          if (!more) return;
        }
      }
      socket.on('error', onError);
      socket.on('drain', pump);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (total === 0) done();
      else pump();
    });
  }

  private finish(socket: net.Socket, total: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // the printer keeps the connection open after our FIN: every byte was flushed, count it delivered
        socket.off('error', onError);
        resolve();
      }, this.options.closeWaitMs);
      const onError = (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(this.error(err, Math.max(0, socket.bytesWritten - socket.writableLength), total));
      };
      socket.once('error', onError);
      socket.once('close', (hadError) => {
        if (hadError) return;
        clearTimeout(timer);
        resolve();
      });
      socket.resume();
      socket.end();
    });
  }

  private error(err: NodeJS.ErrnoException, sent: number, total: number): DeviceError {
    const progress = total > 0 ? ` after ${sent} of ${total} bytes` : '';
    switch (err.code) {
      case 'ECONNREFUSED':
        return new DeviceError('CONNECT_REFUSED', `${this.describe}: connection refused (is the printer on and listening on port ${this.options.port}?)`, sent);
      case 'ECONNRESET':
      case 'EPIPE':
        return new DeviceError('CONNECTION_RESET', `${this.describe}: connection reset by the printer${progress}`, sent);
      case 'EHOSTUNREACH':
      case 'ENETUNREACH':
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return new DeviceError('CONNECT_REFUSED', `${this.describe}: printer unreachable (${err.code})`, sent);
      default:
        return new DeviceError('IO', `${this.describe}: ${err.code ?? err.message}${progress}`, sent);
    }
  }
}

/** A TCP transport to `host:port` with the configured limits; the close wait equals the idle limit. */
export function tcpTransportWith(host: string, port: number, timeouts: TransportTimeouts): Transport {
  return new TcpTransport({ host, port, connectTimeoutMs: timeouts.connectMs, idleTimeoutMs: timeouts.idleMs, closeWaitMs: timeouts.idleMs });
}
