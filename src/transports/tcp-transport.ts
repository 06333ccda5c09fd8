// Raw TCP (port 9100) transport: bounded connect, backpressure-aware writes, stall detection, status queries; one
// connection per call, or one kept across calls while a session is held.
import net from 'node:net';
import { DeviceError } from '../errors';
import { pieces } from './pieces';
import { TcpSession } from './tcp-session';
import type { SendResult, Transport, TransportSession, TransportTimeouts } from './transport';

/** Where and how patiently to talk to the printer; times in ms. `connect` is injectable (defaults to net.connect). */
export interface TcpTransportOptions {
  host: string;
  port: number;
  connectTimeoutMs: number;
  /** No write progress for this long fails the send as a stalled printer. */
  idleTimeoutMs: number;
  /** After our FIN, how long to wait for the printer to close; a printer that keeps the socket open counts as delivered. */
  closeWaitMs: number;
  /** A session's connection unused for this long is closed (the printer is never held by an idle connection); default 500. */
  sessionIdleMs?: number;
  connect?: (options: net.NetConnectOpts) => net.Socket;
}

const CHUNK = 64 * 1024;
/** How long a session's connection may stay unused before it is closed, ms, unless the options say. */
const SESSION_IDLE_MS = 500;

/** A Transport over one TCP connection per call, or one per session while a session is held. */
export class TcpTransport implements Transport {
  readonly describe: string;
  private readonly connectFn: (options: net.NetConnectOpts) => net.Socket;
  /** The session the calls go through, while one is held. */
  private held: TcpSession | null = null;

  constructor(private readonly options: TcpTransportOptions) {
    this.describe = `tcp ${options.host}:${options.port}`;
    this.connectFn = options.connect ?? net.connect;
  }

  /**
   * Holds one connection for the calls that follow (queries and sends, opened by the first of them) until close(): a
   * send then resolves once its bytes were handed to the kernel, and confirmation() once the printer proved it read them
   * (a later query's reply, or the close, which half-closes and waits for the printer as a lone send does). A failed
   * call aborts the connection (failing what it had not confirmed); the next opens a new one. Another session replaces this one.
   */
  session(): TransportSession {
    const session = new TcpSession({
      open: (signal) => this.open(signal),
      finish: (socket, last) => this.finish(socket, last.total, last.before),
      error: (err, socket, last) => this.error(err, Math.min(sentSince(socket, last.before), last.total), last.total),
      idleMs: this.options.sessionIdleMs ?? SESSION_IDLE_MS,
    });
    this.held = session;
    return {
      close: () => {
        if (this.held === session) this.held = null;
        return session.end();
      },
      confirmation: () => session.confirmation(),
    };
  }

  /** Sends every byte, then half-closes and waits for the printer to close (on a session: keeps the connection); failures are DeviceErrors with byte counts. */
  async send(data: Uint8Array, signal?: AbortSignal, repeat = 1): Promise<SendResult> {
    const held = this.held;
    const socket = held ? await held.acquire(signal) : await this.open(signal);
    const total = data.length * repeat;
    const before = socket.bytesWritten;
    try {
      await this.writeAll(socket, data, repeat, signal);
      if (held) held.keep({ before, total });
      else await this.finish(socket, total);
      if (!held) socket.destroy();
      return { bytes: total };
    } catch (err) {
      // a failed or cancelled send aborts the connection (RST): a graceful close would leave the kernel holding the
      // unsent bytes for a printer that stopped reading, and the connection open on both sides for minutes
      if (held) held.drop(err instanceof DeviceError ? err : undefined);
      else socket.resetAndDestroy();
      throw err;
    }
  }

  /**
   * Writes `command` and gathers the reply until `complete` says so; null on silence; DeviceError when the connection
   * fails. On a session, a complete reply confirms the sends before it and the connection is kept; a silent printer's
   * connection is closed gracefully when it owes a confirmation (the close confirms), else let go; a failed one is aborted.
   */
  async query(command: Uint8Array, complete: (reply: Buffer) => boolean, timeoutMs: number): Promise<Buffer | null> {
    const held = this.held;
    if (!held) {
      const socket = await this.open();
      try {
        return await this.gather(socket, command, complete, timeoutMs);
      } finally {
        socket.destroy();
      }
    }
    const socket = await held.acquire();
    const mark = held.mark();
    let reply: Buffer | null;
    try {
      reply = await this.gather(socket, command, complete, timeoutMs);
    } catch (err) {
      held.drop(err instanceof DeviceError ? err : undefined);
      throw err;
    }
    if (reply) {
      held.answered(socket, mark);
      held.keep();
    } else if (held.owing) await held.end().catch(() => undefined);
    else held.drop();
    return reply;
  }

  /** One query's exchange on `socket`; its listeners are removed once it settles. */
  private gather(socket: net.Socket, command: Uint8Array, complete: (reply: Buffer) => boolean, timeoutMs: number): Promise<Buffer | null> {
    return new Promise<Buffer | null>((resolve, reject) => {
      let reply = Buffer.alloc(0);
      const settle = (fn: () => void) => {
        clearTimeout(timer);
        socket.off('data', onData);
        socket.off('error', onError);
        socket.off('close', onClose);
        fn();
      };
      const timer = setTimeout(() => settle(() => resolve(null)), timeoutMs);
      const onData = (chunk: Buffer) => {
        reply = Buffer.concat([reply, chunk]);
        if (complete(reply)) settle(() => resolve(reply));
      };
      const onError = (err: NodeJS.ErrnoException) => settle(() => reject(this.error(err, 0, command.length)));
      const onClose = () => settle(() => resolve(complete(reply) ? reply : null));
      socket.on('data', onData);
      socket.once('error', onError);
      socket.once('close', onClose);
      socket.write(command);
    });
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
      // a session's connection already carried earlier calls' bytes
      const before = socket.bytesWritten;
      const accepted = () => sentSince(socket, before);
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

  private finish(socket: net.Socket, total: number, before = 0): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        // the printer keeps the connection open after our FIN: every byte was flushed, count it delivered
        socket.off('error', onError);
        resolve();
      }, this.options.closeWaitMs);
      const onError = (err: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        reject(this.error(err, sentSince(socket, before), total));
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

/** Bytes the kernel took on `socket` since its count stood at `before`. */
function sentSince(socket: net.Socket, before: number): number {
  return Math.max(0, socket.bytesWritten - socket.writableLength - before);
}

/** A TCP transport to `host:port` with the configured limits; the close wait equals the idle limit. */
export function tcpTransportWith(host: string, port: number, timeouts: TransportTimeouts): Transport {
  return new TcpTransport({ host, port, connectTimeoutMs: timeouts.connectMs, idleTimeoutMs: timeouts.idleMs, closeWaitMs: timeouts.idleMs, sessionIdleMs: Math.min(SESSION_IDLE_MS, timeouts.idleMs) });
}
