// One printer's raw port (PAPPL's printer-raw.c): each connection's bytes, up to its close or 10 s idle, become one job.
import net from 'node:net';
import type { Logger } from '../log';
import type { ConnectionGate, GateExit } from '../util/connection-gate';
import type { MemoryBudget } from '../util/memory-budget';
import type { HostQuery, HostQueryRule } from './host-queries';
import { RawConnection, type RawConnectionDeps } from './raw-connection';

/** What a raw port does with a connection's bytes and its host queries. */
export interface RawPortDeps {
  /** Submits a connection's bytes as one job (host queries taken out unless kept), waiting for room in the spooler; `from` is the client's address. */
  submit: RawConnectionDeps['submit'];
  /** ZPL host queries in a connection's stream: answered from the printer and taken out, taken out, or kept. */
  hostQueries: () => HostQueryRule;
  /** The printer's reply to a host query, or null when it stays silent. */
  ask: (query: HostQuery) => Promise<Buffer | null>;
  /** Most bytes one connection may send; beyond it the connection is closed and nothing printed. */
  maxBytes: () => number;
  /** The device's shared allowance of client bytes in memory: a connection's buffer takes from it as it grows. */
  budget: MemoryBudget;
  /** This port's connection count (in all and per source address). */
  gate: ConnectionGate;
  /** The count every keyless door shares (a share of the descriptors): a socket holds its place there until it has closed. */
  doors: ConnectionGate;
  idleMs: number;
  logger: Logger;
  /** Called with their number once a connection that held more than 1 MiB has let go of its bytes. */
  afterLarge: (bytes: number) => void;
}

/** A connection held, with its place in the port's gate. */
interface Held {
  connection: RawConnection;
  exit: GateExit;
}

/**
 * A TCP listener on one port whose connections each become one job. The port counts connections still receiving their
 * job: at its per-address count, a new connection ends the job of that address's least recently active connection
 * (printed as at its idle time-out); at the port's total, that of the busiest address. A connection whose job is complete
 * leaves that count but keeps its place among the doors until it has closed, also while its job waits for room in the
 * spooler; when the keyless doors together are at their share of descriptors (and none of them waits), a new connection
 * is reset at once.
 */
export class RawPort {
  private readonly server: net.Server;
  /** Connections still receiving their job, least recently active first. */
  private readonly held = new Map<net.Socket, Held>();
  /** Every connection whose socket is open (also those whose job waits for room). */
  private readonly open = new Set<RawConnection>();
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
    for (const connection of this.open) connection.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: net.Socket): void {
    const from = socket.remoteAddress ?? '';
    const door = this.deps.doors.enter(from);
    const exit = door && (this.deps.gate.enter(from) ?? (this.makeRoom(from) ? this.deps.gate.enter(from) : null));
    if (!door || !exit) {
      door?.();
      this.refuse(socket, from);
      return;
    }
    this.refusing = false;
    const connection = new RawConnection(socket, from, {
      submit: this.deps.submit,
      hostQueries: this.deps.hostQueries,
      ask: this.deps.ask,
      maxBytes: this.deps.maxBytes,
      budget: this.deps.budget,
      idleMs: this.deps.idleMs,
      logger: this.deps.logger,
      afterLarge: this.deps.afterLarge,
      onActivity: () => this.touch(socket),
      onComplete: () => this.leave(socket, exit),
      onClose: () => {
        this.leave(socket, exit);
        this.open.delete(connection);
        door();
      },
    });
    this.held.set(socket, { connection, exit });
    this.open.add(connection);
  }

  /**
   * Ends the job of the least recently active connection of `from` (or of the busiest address), one that sent bytes
   * first (its job is then printed; one that sent nothing yet may be about to); false when none may go.
   */
  private makeRoom(from: string): boolean {
    const blocking = this.deps.gate.blocking(from);
    if (blocking === null) return false;
    const address = blocking === 'address' ? from : this.busiest();
    const mine = [...this.held].filter(([, held]) => held.connection.from === address);
    const victim = mine.find(([, held]) => held.connection.started) ?? mine[0];
    if (!victim) return false;
    const [socket, held] = victim;
    this.leave(socket, held.exit);
    held.connection.finish();
    return true;
  }

  /** Takes a connection out of the port's count (its job is complete, or it closed). */
  private leave(socket: net.Socket, exit: GateExit): void {
    exit();
    this.held.delete(socket);
  }

  /** The address holding the most connections. */
  private busiest(): string {
    const counts = new Map<string, number>();
    for (const { connection } of this.held.values()) counts.set(connection.from, (counts.get(connection.from) ?? 0) + 1);
    return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best), ['', 0])[0];
  }

  /** Moves a connection that just received bytes to the end of the activity order. */
  private touch(socket: net.Socket): void {
    const held = this.held.get(socket);
    if (!held) return;
    this.held.delete(socket);
    this.held.set(socket, held);
  }

  /** Resets a connection the doors have no place for; a run of refusals is logged once. */
  private refuse(socket: net.Socket, from: string): void {
    socket.on('error', () => undefined);
    // a reset, not a FIN: a client that already sent its job learns that it was not taken
    socket.resetAndDestroy();
    if (this.refusing) return;
    this.refusing = true;
    this.deps.logger.warn('raw port connection refused: too many connections', { from });
  }
}
