// A TCP (or TLS) front before uWS, which closes a connection whose next request arrives while an answer is pending, and
// whose 20.30 build holds some request heads silently (HTTP/1.0, absolute-form, bare LF, NUL, obs-fold, a space before
// the colon, until its idle timeout): it judges every request head, answers the refused ones itself (400, 431 or 505,
// Connection: close), and passes each request on to uWS on a private unix socket once the answer before it is out,
// after a PROXY v2 header so uWS still reports the client's address.
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { join } from 'node:path';
import type { Logger } from '../log';
import { envelope } from './envelope';
import { ERROR_STATUS } from './error-status';
import { headEnd, judgeHead, overLongHead, type HeadRefusal } from './request-head';
import { FrontRelay, lingerClose } from './front-relay';
import { privateSocketFolder } from './socket-folder';
import { moduleOf, STATUS_LINE, type TlsFiles } from './server';

/**
 * Limits of the front: a first head longer than `headLimitBytes` (default 64 KiB; uWS reads what the front passes on
 * in one read) is refused with 431 as soon as that many bytes are in, whether its request line has ended or not.
 */
export interface Http1FrontOptions {
  logger: Logger;
  headLimitBytes?: number;
  headTimeoutMs?: number;
}

/** Listens on TCP ports for one uWS app each and relays every connection to that app's unix socket. */
export class Http1Front {
  private readonly servers: Server[] = [];
  private readonly pairs = new Set<{ client: Socket; upstream: Socket | null }>();
  private dir: string | null = null;
  private whenEmpty: (() => void) | null = null;
  /** Relays whose first bytes (PROXY header and head) are not yet written to uWS's socket. */
  private readonly delivering = new Set<Promise<void>>();
  private sockets = 0;

  constructor(private readonly options: Http1FrontOptions) {}

  /** A fresh unix socket path for one uWS app, in a folder only this user can enter (removed by `close`). */
  backendPath(): string {
    this.dir ??= privateSocketFolder();
    return join(this.dir, `app-${this.sockets++}.sock`);
  }

  /** Accepts on `host`:`port` (0: a free one), over TLS with `tls`, for the uWS app listening on `backendPath`; resolves with the bound port. */
  listen(host: string, port: number, backendPath: string, tls?: TlsFiles): Promise<number> {
    const server = tls
      ? createTlsServer({ cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile), allowHalfOpen: true }, (client) => this.accept(client.setNoDelay(true), backendPath))
      : createServer({ allowHalfOpen: true, noDelay: true }, (client) => this.accept(client, backendPath));
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        const bound = server.address();
        resolve(typeof bound === 'object' && bound ? bound.port : port);
      });
    });
  }

  /** Stops accepting new connections (the open ones go on until `endConnections`). */
  stopAccepting(): void {
    for (const server of this.servers.splice(0)) server.close();
    if (this.dir) rmSync(this.dir, { recursive: true, force: true });
    this.dir = null;
  }

  /** Resolves once the first bytes of every relay started so far are written to uWS's socket (or the relay failed). */
  async delivered(): Promise<void> {
    await Promise.all([...this.delivering]);
  }

  /**
   * Ends every open connection's upstream half (uWS then closes it, and the client gets what uWS sent, then FIN);
   * resolves once every client connection closed, destroying what is still open after a second.
   */
  async endConnections(): Promise<void> {
    if (this.pairs.size === 0) return;
    for (const pair of this.pairs) {
      if (pair.upstream) pair.upstream.end();
      else pair.client.destroy();
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        for (const pair of this.pairs) {
          pair.upstream?.destroy();
          pair.client.destroy();
        }
        resolve();
      }, 1000);
      this.whenEmpty = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private accept(client: Socket, backendPath: string): void {
    const pair: { client: Socket; upstream: Socket | null } = { client, upstream: null };
    this.pairs.add(pair);
    client.on('close', () => {
      this.pairs.delete(pair);
      if (this.pairs.size === 0) this.whenEmpty?.();
    });
    client.on('error', () => client.destroy());
    const limit = this.headLimit();
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => client.destroy(), this.options.headTimeoutMs ?? 10_000);
    const decide = (bytes: Buffer, end: number) => {
      client.pause();
      client.off('data', onData);
      clearTimeout(timer);
      // uWS 20.30 closes a long head that comes in two reads unanswered: the front answers for it
      const verdict = end < 0 || end > limit ? overLongHead(bytes, limit) : judgeHead(bytes.subarray(0, end));
      if ('code' in verdict) return this.refuse(client, verdict.code, verdict.reason, verdict.target);
      const relay = new FrontRelay(client, { backendPath, headLimit: limit, refuse: (v) => this.refuse(client, v.code, v.reason, v.target) }, verdict.pass, bytes.subarray(end));
      pair.upstream = relay.upstream;
      const delivery = relay.delivered.finally(() => this.delivering.delete(delivery));
      this.delivering.add(delivery);
    };
    // the chunks are joined only when one brings a line end (a head ends with one), so a long head costs no copies
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (chunk.includes(0x0a)) {
        const bytes = chunks.length === 1 ? chunk : Buffer.concat(chunks);
        const end = headEnd(bytes);
        if (end >= 0) return decide(bytes, end);
      }
      // a connection holds at most the head limit, request line or not (150 idle connections: 150 x 64 KiB)
      if (size < limit) return;
      decide(Buffer.concat(chunks), -1);
    };
    client.on('data', onData);
    client.on('end', () => {
      if (!pair.upstream) client.destroy();
    });
  }

  private refuse(client: Socket, code: HeadRefusal, reason: string, target: string): void {
    const { status, message } = ERROR_STATUS[code];
    const body = JSON.stringify(envelope(status, moduleOf(target.split('?')[0]), message, { message: reason }));
    const head = `HTTP/1.1 ${STATUS_LINE[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
    this.options.logger.debug('request head refused before uWS', { status, reason });
    client.write(head + body);
    // read and drop the rest, or the refused client's half-open socket would stay until the process ends
    lingerClose(client);
  }

  private headLimit(): number {
    return this.options.headLimitBytes ?? 65_536;
  }
}

/**
 * The front every uWS build needs: 20.30 and 20.57 alike close a connection whose next request arrives while an answer
 * is pending (RFC 9112 lets a client pipeline), 20.30 also holds some heads silently, and 20.57 answers some with
 * its own HTML 505 (finding F7).
 */
export function frontForRuntime(logger: Logger): Http1Front {
  return new Http1Front({ logger });
}
