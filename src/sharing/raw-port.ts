// One printer's raw port (PAPPL's printer-raw.c): each connection's bytes, up to its close or 10 s idle, become one job.
import net from 'node:net';
import type { Logger } from '../log';
import type { ConnectionGate } from '../util/connection-gate';
import type { MemoryBudget } from '../util/memory-budget';
import { HostQueryScanner, withoutHostQueries, type HostQuery } from './host-queries';

/** What a raw port does with a connection's bytes and its host queries. */
export interface RawPortDeps {
  /** Submits a connection's bytes as one job (host queries already taken out); `from` is the client's address. */
  submit: (data: Buffer, from: string) => Promise<void>;
  /** Whether host queries are answered from the printer (ZPL printers). */
  answersQueries: () => boolean;
  /** The printer's reply to a host query, or null when it stays silent. */
  ask: (query: HostQuery) => Promise<Buffer | null>;
  /** Most bytes one connection may send; beyond it the connection is closed and nothing printed. */
  maxBytes: () => number;
  /** The device's shared allowance of client bytes in memory: a connection's buffer takes from it as it grows. */
  budget: MemoryBudget;
  /** This port's connection count (in all and per source address); a connection over it is closed at once. */
  gate: ConnectionGate;
  /** False while the spooler cannot take another job (spool bytes or job count at their limit): new connections are then closed at once. */
  acceptsJobs: () => boolean;
  idleMs: number;
  logger: Logger;
}

/** What one connection has sent so far. */
interface Incoming {
  chunks: Buffer[];
  size: number;
  /** Nothing is printed: the connection went over a limit. */
  dropped: boolean;
}

/** A TCP listener on one port whose connections each become one job. */
export class RawPort {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** Whether the last connection was refused, so a flood of refusals is logged once. */
  private refusing = false;

  constructor(private readonly deps: RawPortDeps) {
    this.server = net.createServer({ allowHalfOpen: true }, (socket) => this.accept(socket));
  }

  /** Listens on `host`:`port`; rejects when the port cannot be opened. */
  listen(host: string, port: number): Promise<void> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
  }

  /** Stops listening and drops open connections (their bytes are not printed). */
  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    const from = socket.remoteAddress ?? '';
    const exit = this.deps.acceptsJobs() ? this.deps.gate.enter(from) : null;
    if (!exit) {
      this.refuse(socket, from);
      return;
    }
    this.refusing = false;
    this.sockets.add(socket);
    const incoming: Incoming = { chunks: [], size: 0, dropped: false };
    let answered = Promise.resolve();
    const scanner = this.deps.answersQueries() ? new HostQueryScanner() : null;
    // idle: the bytes so far are the job; our side closes once pending answers are out, without waiting for the client's
    // close, and at the latest one more idle time later (a client that reads nothing cannot hold the socket)
    socket.setTimeout(this.deps.idleMs, () => {
      setTimeout(() => socket.destroy(), this.deps.idleMs).unref();
      void answered.then(() => socket.end(() => socket.destroy()));
    });
    socket.on('data', (chunk: Buffer) => {
      if (incoming.dropped || !this.hold(incoming, chunk, from)) {
        socket.destroy();
        return;
      }
      for (const query of scanner?.feed(chunk) ?? []) answered = answered.then(() => this.answer(socket, query));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(socket);
      exit();
      this.print(incoming, from).finally(() => this.deps.budget.give(incoming.size));
    });
    // half-closed by the client: its bytes are all in; the queue of answers is written before our end
    socket.on('end', () => void answered.then(() => socket.end()));
  }

  /** Keeps `chunk` within the byte limit and the memory budget; false (the connection's bytes dropped) when over either. */
  private hold(incoming: Incoming, chunk: Buffer, from: string): boolean {
    const over = incoming.size + chunk.length > this.deps.maxBytes() ? 'the body limit' : !this.deps.budget.take(chunk.length) ? 'the memory budget' : null;
    if (over) {
      this.deps.logger.warn(`raw port connection over ${over} closed`, { from, bytes: incoming.size + chunk.length });
      incoming.dropped = true;
      incoming.chunks.length = 0;
      return false;
    }
    incoming.chunks.push(chunk);
    incoming.size += chunk.length;
    return true;
  }

  /** Submits a connection's bytes (unless dropped or only host queries); resolves once the job is stored or refused. */
  private async print(incoming: Incoming, from: string): Promise<void> {
    if (incoming.dropped) return;
    const data = withoutHostQueries(Buffer.concat(incoming.chunks));
    incoming.chunks.length = 0;
    if (data.toString('latin1').trim().length === 0) return;
    await this.deps.submit(data, from).catch((err: unknown) => this.deps.logger.warn('raw port job refused', { from, error: (err as Error).message }));
  }

  /** Closes a connection over the port's limits or while the spool is full; a run of refusals is logged once. */
  private refuse(socket: net.Socket, from: string): void {
    socket.on('error', () => undefined);
    socket.destroy();
    if (this.refusing) return;
    this.refusing = true;
    const why = this.deps.acceptsJobs() ? 'too many connections' : 'the spooler takes no more jobs';
    this.deps.logger.warn(`raw port connection refused: ${why}`, { from });
  }

  private async answer(socket: net.Socket, query: HostQuery): Promise<void> {
    const reply = await this.deps.ask(query);
    if (reply && !socket.destroyed && socket.writable) socket.write(reply);
  }
}
