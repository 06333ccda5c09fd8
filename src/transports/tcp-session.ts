// One raw TCP connection kept open across a printer's calls (pre-flight, jobs, status) while a session is held: reused
// while it stays sound, aborted on any failure, closed gracefully at the session's end or once it idles. A send on it is
// confirmed once the printer proved it read the bytes: a reply to a query written after them, or a clean close.
import type net from 'node:net';
import { DeviceError } from '../errors';

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

/** A send not yet confirmed by the printer, settled by what happens to its socket. */
interface Owed {
  socket: net.Socket;
  seq: number;
  last: LastSend;
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: DeviceError) => void;
}

/** At most one open socket, handed to each call made while the session is held. */
export class TcpSession {
  private socket: net.Socket | null = null;
  /** What broke the kept socket while no call was using it (reported by end()). */
  private broken: DeviceError | null = null;
  private idle: NodeJS.Timeout | null = null;
  private last: LastSend = { before: 0, total: 0 };
  /** Sends made on the session's sockets that the printer has not confirmed yet, oldest first. */
  private owed: Owed[] = [];
  private sends = 0;

  constructor(private readonly parts: TcpSessionParts) {}

  /** The kept socket, or a new one when there is none or the printer closed it. */
  async acquire(signal?: AbortSignal): Promise<net.Socket> {
    this.stopIdle();
    const kept = this.socket;
    if (kept && usable(kept)) return kept;
    this.discard();
    const socket = await this.parts.open(signal);
    socket.on('error', (err: NodeJS.ErrnoException) => {
      // a kept socket may fail between calls: remembered, so the session's end reports it; its unconfirmed sends fail
      this.broken ??= this.parts.error(err, socket, this.last);
      this.settle(socket, Infinity, (owed) => owed.reject(this.parts.error(err, socket, owed.last)));
    });
    // a clean close (ours after the printer let go, or the printer's own) confirms every send before it
    socket.on('close', (hadError: boolean) => {
      if (!hadError) this.settle(socket, Infinity, (owed) => owed.resolve());
    });
    this.socket = socket;
    this.last = { before: 0, total: 0 };
    return socket;
  }

  /** Keeps the socket for the next call (after a send: `sent`, owed a confirmation); it is closed once unused for idleMs. */
  keep(sent?: LastSend): void {
    this.stopIdle();
    if (sent) {
      this.last = sent;
      if (this.socket) this.owe(this.socket, sent);
    }
    if (!this.socket) return;
    this.idle = setTimeout(() => void this.end().catch(() => undefined), this.parts.idleMs);
    this.idle.unref();
  }

  /** The sends made so far on the session (as counted by `mark()` before a query is written). */
  mark(): number {
    return this.sends;
  }

  /** A query written on `socket` after send number `mark` got its reply: the printer read every send up to it. */
  answered(socket: net.Socket, mark: number): void {
    this.settle(socket, mark, (owed) => owed.resolve());
  }

  /** True while a send on the kept socket awaits its confirmation. */
  get owing(): boolean {
    return this.owed.some((owed) => owed.socket === this.socket);
  }

  /** Resolves once the printer confirmed the sends made so far (a later query's reply, or a clean close); rejects with the DeviceError of the connection's failure. */
  confirmation(): Promise<void> {
    return this.owed.at(-1)?.promise ?? Promise.resolve();
  }

  /** Aborts the socket (RST) after a failed call (`cause`); its unconfirmed sends fail; the next call opens a new one. */
  drop(cause?: DeviceError): void {
    this.stopIdle();
    const socket = this.socket;
    if (socket) this.settle(socket, Infinity, (owed) => owed.reject(unconfirmed(owed.last, cause)));
    socket?.resetAndDestroy();
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
      this.settle(socket, Infinity, (owed) => owed.reject(unconfirmed(owed.last, err instanceof DeviceError ? err : undefined)));
      socket.resetAndDestroy();
      throw err;
    }
  }

  /** Forgets a socket the printer closed (or that broke) before the next call opens a new one; its close settles what it owed. */
  private discard(): void {
    this.socket?.destroy();
    this.socket = null;
    this.broken = null;
  }

  private owe(socket: net.Socket, last: LastSend): void {
    let resolve!: () => void;
    let reject!: (err: DeviceError) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    // nobody may ask for it (the session closes right after the send): never an unhandled rejection
    promise.catch(() => undefined);
    this.sends += 1;
    this.owed.push({ socket, seq: this.sends, last, promise, resolve, reject });
  }

  /** Settles the sends owed on `socket` up to number `upTo`, each with `how`. */
  private settle(socket: net.Socket, upTo: number, how: (owed: Owed) => void): void {
    const settled = this.owed.filter((owed) => owed.socket === socket && owed.seq <= upTo);
    if (settled.length === 0) return;
    this.owed = this.owed.filter((owed) => !settled.includes(owed));
    for (const owed of settled) how(owed);
  }

  private stopIdle(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
  }
}

/** The failure of a send whose connection was aborted before the printer confirmed it (a later call's own `cause`). */
function unconfirmed(last: LastSend, cause?: DeviceError): DeviceError {
  const why = cause ? `: ${cause.message}` : '';
  // the job that was canceled is the later one, not this
  const code = !cause || cause.code === 'CANCELED' ? 'IO' : cause.code;
  return new DeviceError(code, `the connection was aborted before the printer confirmed reading these ${last.total} bytes${why}`, last.total);
}

/** True while both directions of the socket are open. */
function usable(socket: net.Socket): boolean {
  return !socket.destroyed && socket.writable && socket.readable;
}
