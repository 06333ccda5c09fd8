// One printer's raw port (PAPPL's printer-raw.c): each connection's bytes, up to its close or 10 s idle, become one job.
import net from 'node:net';
import type { Logger } from '../log';
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
  idleMs: number;
  logger: Logger;
}

/** A TCP listener on one port whose connections each become one job. */
export class RawPort {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

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
    this.sockets.add(socket);
    const chunks: Buffer[] = [];
    let size = 0;
    let answered = Promise.resolve();
    const scanner = this.deps.answersQueries() ? new HostQueryScanner() : null;
    const from = socket.remoteAddress ?? '';
    socket.setTimeout(this.deps.idleMs, () => socket.end());
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > this.deps.maxBytes()) {
        this.deps.logger.warn('raw port connection over the body limit closed', { from, bytes: size });
        chunks.length = 0;
        socket.destroy();
        return;
      }
      chunks.push(chunk);
      for (const query of scanner?.feed(chunk) ?? []) answered = answered.then(() => this.answer(socket, query));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.sockets.delete(socket);
      const data = withoutHostQueries(Buffer.concat(chunks));
      if (data.toString('latin1').trim().length === 0) return;
      this.deps.submit(data, from).catch((err: unknown) => this.deps.logger.warn('raw port job refused', { from, error: (err as Error).message }));
    });
    // half-closed by the client: its bytes are all in; the queue of answers is written before our end
    socket.on('end', () => void answered.then(() => socket.end()));
  }

  private async answer(socket: net.Socket, query: HostQuery): Promise<void> {
    const reply = await this.deps.ask(query);
    if (reply && !socket.destroyed && socket.writable) socket.write(reply);
  }
}
