// One raw-port connection: its bytes (within the byte limit and the memory budget), its host queries, its end as one job.
import type net from 'node:net';
import type { Logger } from '../log';
import { LARGE_BODY_BYTES, type MemoryBudget } from '../util/memory-budget';
import { HostQueryScanner, withoutHostQueries, type HostQuery } from './host-queries';

/** What a connection needs of its port. */
export interface RawConnectionDeps {
  /** Submits the connection's bytes as one job (host queries already taken out). */
  submit: (data: Buffer, from: string) => Promise<void>;
  /** Whether host queries are answered from the printer (ZPL printers). */
  answersQueries: () => boolean;
  /** The printer's reply to a host query, or null when it stays silent. */
  ask: (query: HostQuery) => Promise<Buffer | null>;
  /** Most bytes one connection may send; beyond it the connection is closed and nothing printed. */
  maxBytes: () => number;
  /** The device's shared allowance of client bytes in memory: the connection's buffer takes from it as it grows. */
  budget: MemoryBudget;
  idleMs: number;
  logger: Logger;
  /** Called once a connection that held more than 1 MiB has let go of its bytes (a collection gives their memory back). */
  afterLarge: () => void;
  /** Called on each chunk received (the port keeps its connections in order of activity). */
  onActivity: () => void;
  /** Called once when the socket has closed (its job is then submitted). */
  onClose: () => void;
}

/** Silence after which a finished connection is closed without waiting for the client's close. */
const FINISH_QUIET_MS = 250;

/** One connection's bytes; they become one job when the client closes, after `idleMs` of silence, or on `finish()`. */
export class RawConnection {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  /** Nothing is printed: the connection went over a limit. */
  private dropped = false;
  /** Most bytes held at once (a dropped connection's count goes back to 0). */
  private peak = 0;
  private answered = Promise.resolve();
  private finishing = false;

  constructor(
    private readonly socket: net.Socket,
    /** The client's address. */
    readonly from: string,
    private readonly deps: RawConnectionDeps,
  ) {
    const scanner = deps.answersQueries() ? new HostQueryScanner() : null;
    socket.setTimeout(deps.idleMs, () => this.finish());
    socket.on('data', (chunk: Buffer) => {
      if (this.dropped || !this.hold(chunk)) {
        socket.destroy();
        return;
      }
      deps.onActivity();
      for (const query of scanner?.feed(chunk) ?? []) this.answered = this.answered.then(() => this.answer(query));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      deps.onClose();
      const held = this.size;
      const large = this.peak > LARGE_BODY_BYTES;
      this.print().finally(() => {
        deps.budget.give(held);
        if (large) deps.afterLarge();
      });
    });
    // half-closed by the client: its bytes are all in; the queue of answers is written before our end
    socket.on('end', () => void this.answered.then(() => socket.end()));
  }

  /** Whether any bytes came yet. */
  get started(): boolean {
    return this.size > 0;
  }

  /**
   * Ends the job (idle time-out, or the port needs the place): our side closes once pending answers are out, and the
   * socket once the client closes or has been silent for FINISH_QUIET_MS (bytes already on their way still count), at
   * the latest one idle time later: a client that keeps the connection open, or reads nothing, cannot hold it.
   */
  finish(): void {
    if (this.finishing) return;
    this.finishing = true;
    setTimeout(() => this.socket.destroy(), this.deps.idleMs).unref();
    this.socket.setTimeout(FINISH_QUIET_MS, () => this.socket.destroy());
    void this.answered.then(() => this.socket.end());
  }

  /** Drops the connection and its bytes at once (port closing). */
  destroy(): void {
    this.dropped = true;
    this.socket.destroy();
  }

  /**
   * Keeps `chunk` within the byte limit and the memory budget; false when over either: the connection's bytes are dropped
   * and given back at once, so of several connections growing together the last ones go on.
   */
  private hold(chunk: Buffer): boolean {
    const over = this.size + chunk.length > this.deps.maxBytes() ? 'the body limit' : !this.deps.budget.take(chunk.length) ? 'the memory budget' : null;
    if (over) {
      this.deps.logger.warn(`raw port connection over ${over} closed`, { from: this.from, bytes: this.size + chunk.length });
      this.dropped = true;
      this.chunks.length = 0;
      this.deps.budget.give(this.size);
      this.size = 0;
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.peak = Math.max(this.peak, this.size);
    return true;
  }

  /** Submits the bytes (unless dropped or only host queries); resolves once the job is stored or refused. */
  private async print(): Promise<void> {
    if (this.dropped) return;
    const data = withoutHostQueries(Buffer.concat(this.chunks));
    this.chunks.length = 0;
    if (blank(data)) return;
    await this.deps.submit(data, this.from).catch((err: unknown) => this.deps.logger.warn('raw port job refused', { from: this.from, error: (err as Error).message }));
  }

  private async answer(query: HostQuery): Promise<void> {
    const reply = await this.deps.ask(query);
    if (reply && !this.socket.destroyed && this.socket.writable) this.socket.write(reply);
  }
}

/** True when `data` holds only whitespace (a connection that sent nothing to print). */
function blank(data: Buffer): boolean {
  for (const byte of data) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0b && byte !== 0x0c) return false;
  return true;
}
