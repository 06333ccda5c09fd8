// One raw-port connection: its bytes (within the byte limit and the memory budget), its host queries, its end as one job.
import type net from 'node:net';
import type { Logger } from '../log';
import { LARGE_BODY_BYTES, type MemoryBudget } from '../util/memory-budget';
import { HostQueryScanner, withoutHostQueries, type HostQuery, type HostQueryRule } from './host-queries';

/** A complete job's hold on its connection while the job waits for room in the spooler. */
export interface WaitingConnection {
  /** Resets the connection, its descriptor is then free (the job is given up); false once it has closed, nothing done. */
  reclaim: () => boolean;
  /** True once the port dropped the connection (port closing): its job is no longer to be stored. */
  dropped: () => boolean;
}

/** What a connection needs of its port. */
export interface RawConnectionDeps {
  /** Submits the connection's bytes as one job (host queries taken out unless kept), waiting for room in the spooler. */
  submit: (data: Buffer, from: string, connection: WaitingConnection) => Promise<void>;
  /** ZPL host queries in the stream: answered from the printer and taken out (ZPL printers), taken out, or kept (a language whose text they may be). */
  hostQueries: () => HostQueryRule;
  /** The printer's reply to a host query, or null when it stays silent. */
  ask: (query: HostQuery) => Promise<Buffer | null>;
  /** Most bytes one connection may send; beyond it the connection is closed and nothing printed. */
  maxBytes: () => number;
  /** The device's shared allowance of client bytes in memory: the connection's buffer takes from it as it grows. */
  budget: MemoryBudget;
  idleMs: number;
  logger: Logger;
  /** Called once a connection that held more than 1 MiB has let go of its bytes (a collection gives their memory back). */
  afterLarge: (bytes: number) => void;
  /** Called on each chunk received (the port keeps its connections in order of activity). */
  onActivity: () => void;
  /** Called once when the job's bytes are all in (the connection then only waits for its job to be stored). */
  onComplete: () => void;
  /** Called once when the socket has closed or was reset (its descriptor is free). */
  onClose: () => void;
}

/** Silence after which a finished connection's bytes are taken as complete. */
const FINISH_QUIET_MS = 250;

/**
 * One connection's bytes; they become one job when the client closes, after `idleMs` of silence, or on `finish()`. The
 * job is then submitted; once it is stored the device closes the connection (FIN), and when it is not (a spooler full for
 * too long, or the descriptor needed) resets it, so the client can tell.
 */
export class RawConnection {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  /** Nothing is printed: the connection went over a limit. */
  private dropped = false;
  /** Most bytes held at once (a dropped connection's count goes back to 0). */
  private peak = 0;
  private answered = Promise.resolve();
  private readonly keepsQueries: boolean;
  private finishing = false;
  /** The job's bytes are all in: later bytes are not taken. */
  private complete = false;
  private closed = false;

  constructor(
    private readonly socket: net.Socket,
    /** The client's address. */
    readonly from: string,
    private readonly deps: RawConnectionDeps,
  ) {
    const rule = deps.hostQueries();
    this.keepsQueries = rule === 'keep';
    const scanner = rule === 'answer' ? new HostQueryScanner() : null;
    socket.setTimeout(deps.idleMs, () => this.finish());
    socket.on('data', (chunk: Buffer) => {
      if (this.complete) return this.reset();
      if (this.dropped || !this.hold(chunk)) return void socket.destroy();
      deps.onActivity();
      for (const query of scanner?.feed(chunk) ?? []) this.answered = this.answered.then(() => this.answer(query));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.release();
      this.end();
    });
    // half-closed by the client: its bytes are all in
    socket.on('end', () => this.end());
  }

  /** Whether any bytes came yet. */
  get started(): boolean {
    return this.size > 0;
  }

  /** Whether the job's bytes are all in (the connection waits for its job to be stored, or closes). */
  get completed(): boolean {
    return this.complete;
  }

  /**
   * Ends the job (idle time-out, or the port needs the place): its bytes are complete once the client closes or has been
   * silent for FINISH_QUIET_MS (bytes already on their way still count), at the latest one idle time later, so a client
   * that keeps sending cannot hold the connection.
   */
  finish(): void {
    if (this.finishing) return;
    this.finishing = true;
    setTimeout(() => this.end(), this.deps.idleMs).unref();
    this.socket.setTimeout(FINISH_QUIET_MS, () => this.end());
  }

  /** Drops the connection and its bytes at once, unprinted (port closing); a complete one waiting for room is reset. */
  destroy(): void {
    this.dropped = true;
    if (this.complete) this.reset();
    else this.socket.destroy();
  }

  /** The job's bytes are all in: reading stops, the job is submitted, and the connection closed as it went. */
  private end(): void {
    if (this.complete) return;
    this.complete = true;
    this.socket.setTimeout(0);
    this.socket.pause();
    this.deps.onComplete();
    const held = this.size;
    const large = this.peak > LARGE_BODY_BYTES;
    this.print().then(
      () => this.close(),
      () => this.reset(),
    ).finally(() => {
      this.deps.budget.give(held);
      if (large) this.deps.afterLarge(this.peak);
    });
  }

  /** Closes our side once pending answers are out; the socket once the client closes, is silent FINISH_QUIET_MS, or after one idle time. */
  private close(): void {
    if (this.closed) return;
    void this.answered.then(() => {
      if (this.socket.destroyed) return;
      this.socket.setTimeout(FINISH_QUIET_MS, () => this.socket.destroy());
      setTimeout(() => this.socket.destroy(), this.deps.idleMs).unref();
      this.socket.end();
      this.socket.resume();
    });
  }

  /**
   * Resets the connection (the client learns its job was not taken) and frees its place at once; once our FIN is on its
   * way (the job was stored) it is only destroyed: a reset with a shutdown pending never lets the socket go.
   */
  private reset(): void {
    if (this.socket.writableEnded) this.socket.destroy();
    else if (!this.socket.destroyed) this.socket.resetAndDestroy();
    this.release();
  }

  private release(): void {
    if (this.closed) return;
    this.closed = true;
    this.deps.onClose();
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

  /** Submits the bytes (unless dropped or only host queries); resolves once the job is stored, rejects when it is not. */
  private async print(): Promise<void> {
    if (this.dropped) return;
    const whole = Buffer.concat(this.chunks);
    const data = this.keepsQueries ? whole : withoutHostQueries(whole);
    this.chunks.length = 0;
    if (blank(data)) return;
    const reclaim = () => !this.closed && (this.reset(), true);
    await this.deps.submit(data, this.from, { reclaim, dropped: () => this.dropped }).catch((err: unknown) => {
      this.deps.logger.warn('raw port job refused', { from: this.from, error: (err as Error).message });
      throw err;
    });
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
