// One raw TCP connection kept open across a printer's calls (pre-flight, jobs, status) while a session is held: reused
// while it stays sound, aborted on any failure, closed gracefully at the session's end or once it idles.
import type net from 'node:net';
import type { DeviceError } from '../errors';

/** The last send on a session's socket: where its bytes start in the socket's count, and how many it had. */
export interface LastSend {
  before: number;
  total: number;
}

/** How a session opens and ends its socket (the transport's own steps). */
export interface TcpSessionParts {
  /** Opens a connection (bounded connect; CANCELED when `signal` aborts). */
  open: (signal?: AbortSignal) => Promise<net.Socket>;
  /** Half-closes and waits for the printer to close; rejects with a DeviceError counting the bytes of `last` (the send it confirms). */
  finish: (socket: net.Socket, last: LastSend) => Promise<void>;
  /** Turns a socket error into the transport's DeviceError, counting the bytes of `last`. */
  error: (err: NodeJS.ErrnoException, socket: net.Socket, last: LastSend) => DeviceError;
  /** A kept socket unused for this long is closed: it never idles open, ms. */
  idleMs: number;
}

/** At most one open socket, handed to each call made while the session is held. */
export class TcpSession {
  private socket: net.Socket | null = null;
  /** What broke the kept socket while no call was using it (reported by end()). */
  private broken: DeviceError | null = null;
  private idle: NodeJS.Timeout | null = null;
  private last: LastSend = { before: 0, total: 0 };

  constructor(private readonly parts: TcpSessionParts) {}

  /** The kept socket, or a new one when there is none or the printer closed it. */
  async acquire(signal?: AbortSignal): Promise<net.Socket> {
    this.stopIdle();
    const kept = this.socket;
    if (kept && usable(kept)) return kept;
    this.discard();
    const socket = await this.parts.open(signal);
    // a kept socket may fail between calls: remembered, so the session's end reports it
    socket.on('error', (err: NodeJS.ErrnoException) => (this.broken ??= this.parts.error(err, socket, this.last)));
    this.socket = socket;
    this.last = { before: 0, total: 0 };
    return socket;
  }

  /** Keeps the socket for the next call (after a send: `sent`, which its close confirms); it is closed once unused for idleMs. */
  keep(sent?: LastSend): void {
    this.stopIdle();
    if (sent) this.last = sent;
    if (!this.socket) return;
    this.idle = setTimeout(() => void this.end().catch(() => undefined), this.parts.idleMs);
    this.idle.unref();
  }

  /** Aborts the socket (RST) after a failed call; the next call opens a new one. */
  drop(): void {
    this.stopIdle();
    this.socket?.resetAndDestroy();
    this.socket = null;
    this.broken = null;
  }

  /** Ends the socket gracefully; resolves once the printer closed it (or kept it past the close wait); rejects with a DeviceError. */
  async end(): Promise<void> {
    this.stopIdle();
    const socket = this.socket;
    const broken = this.broken;
    this.socket = null;
    this.broken = null;
    if (!socket) return;
    if (broken) {
      socket.destroy();
      throw broken;
    }
    if (!usable(socket)) return void socket.destroy();
    try {
      await this.parts.finish(socket, this.last);
      socket.destroy();
    } catch (err) {
      socket.resetAndDestroy();
      throw err;
    }
  }

  /** Forgets a socket the printer closed (or that broke) before the next call opens a new one. */
  private discard(): void {
    this.socket?.destroy();
    this.socket = null;
    this.broken = null;
  }

  private stopIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
  }
}

/** True while both directions of the socket are open. */
function usable(socket: net.Socket): boolean {
  return !socket.destroyed && socket.writable && socket.readable;
}
