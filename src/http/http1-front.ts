// A TCP front for uWS builds that hold some request heads silently (20.30: HTTP/1.0, absolute-form, bare LF, NUL,
// obs-fold, a space before the colon, until their idle timeout): it judges each connection's first head, answers the
// refused ones itself (400, 431 or 505, Connection: close), and pipes the rest to uWS on a private unix socket, preceded by a
// PROXY v2 header so uWS still reports the client's address.
import { rmSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Logger } from '../log';
import { envelope } from './envelope';
import { proxyV2Header } from './proxy-header';
import { ERROR_STATUS } from './error-status';
import { headEnd, judgeHead, overLongHead, type HeadRefusal } from './request-head';
import { moduleOf, STATUS_LINE } from './server';
import { currentRuntime, uwsBuildFor } from '../native/uws-builds';
import { privateSocketFolder } from './socket-folder';

/**
 * Limits of the front: a first head longer than `headLimitBytes` (default 64 KiB; uWS reads what the front passes on
 * in one read) is refused with 431, once its request line is in (up to 1 MiB) so the envelope names its path.
 */
export interface Http1FrontOptions {
  logger: Logger;
  headLimitBytes?: number;
  headTimeoutMs?: number;
}

/** How long a client may go on sending after uWS closed its connection (RFC 9112 section 9.6's lingering close). */
const LINGER_MS = 2000;
/** How much of an over-long head is read to find the end of its request line. */
const REQUEST_LINE_CAP = 1024 * 1024;

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

  /** Accepts on `host`:`port` (0: a free one) for the uWS app listening on `backendPath`; resolves with the bound port. */
  listen(host: string, port: number, backendPath: string): Promise<number> {
    const server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => this.accept(client, backendPath));
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
    const limit = this.options.headLimitBytes ?? 65_536;
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => client.destroy(), this.options.headTimeoutMs ?? 10_000);
    let newline = false;
    const decide = (bytes: Buffer, end: number) => {
      client.pause();
      client.off('data', onData);
      clearTimeout(timer);
      // uWS 20.30 closes a long head that comes in two reads unanswered: the front answers for it
      const verdict = end < 0 || end > limit ? overLongHead(bytes, limit) : judgeHead(bytes.subarray(0, end));
      if ('code' in verdict) return this.refuse(client, verdict.code, verdict.reason, verdict.target);
      pair.upstream = this.relay(client, backendPath, Buffer.concat([verdict.pass, bytes.subarray(end)]));
    };
    // the chunks are joined only when one brings a line end (a head ends with one), so a long head costs no copies
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      const lineEnd = chunk.includes(0x0a);
      newline ||= lineEnd;
      if (lineEnd) {
        const bytes = chunks.length === 1 ? chunk : Buffer.concat(chunks);
        const end = headEnd(bytes);
        if (end >= 0) return decide(bytes, end);
      }
      if (size < limit || (!newline && size < REQUEST_LINE_CAP)) return;
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

  private relay(client: Socket, backendPath: string, first: Buffer): Socket {
    const upstream = connect({ path: backendPath, allowHalfOpen: true });
    upstream.write(proxyV2Header({ address: client.remoteAddress, port: client.remotePort }, { address: client.localAddress, port: client.localPort }));
    const delivery: Promise<void> = new Promise<void>((resolve) => {
      upstream.write(first, () => resolve());
      upstream.once('close', () => resolve());
    }).finally(() => this.delivering.delete(delivery));
    this.delivering.add(delivery);
    let forwarding = true;
    // what the client still sends is read and dropped; its side closes once uWS's side did
    const stopForwarding = () => {
      forwarding = false;
      client.resume();
    };
    const close = () => {
      stopForwarding();
      lingerClose(client);
    };
    holdDestroyUntilRead(upstream, stopForwarding);
    client.on('data', (chunk: Buffer) => {
      if (!forwarding) return;
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once('drain', () => client.resume());
      }
    });
    client.on('end', () => {
      if (forwarding) upstream.end();
    });
    client.resume();
    upstream.pipe(client);
    // uWS's FIN comes after all it sent: forward nothing more
    upstream.on('end', close);
    upstream.on('error', () => upstream.destroy());
    upstream.on('close', close);
    client.on('close', () => upstream.destroy());
    return upstream;
  }
}

/**
 * uWS closed its side: the client gets what uWS sent, then FIN; what it still sends is read and dropped for a while, so
 * no reset reaches it before it read the answer (a reset makes its kernel discard unread bytes).
 */
function lingerClose(client: Socket): void {
  client.resume();
  client.end();
  setTimeout(() => client.destroy(), LINGER_MS).unref();
}

/**
 * A write into a socket uWS has closed fails (EPIPE), and Node destroys the socket with uWS's last answer still unread
 * in it (a refusal sent mid-body, then close). Such a destroy waits until that answer is read to its end, or LINGER_MS.
 */
function holdDestroyUntilRead(upstream: Socket, stopWriting: () => void): void {
  const destroy = upstream.destroy.bind(upstream);
  let holding = false;
  upstream.destroy = ((err?: Error) => {
    if (!err || upstream.readableEnded) return destroy();
    if (!holding) {
      holding = true;
      // Node marks the readable side errored with a failed write too (writable.js onwrite); the answer is still to be read
      (upstream as unknown as { _readableState: { errored: Error | null } })._readableState.errored = null;
      stopWriting();
      upstream.once('end', () => destroy());
      setTimeout(() => destroy(), LINGER_MS).unref();
    }
    return upstream;
  }) as Socket['destroy'];
}

/** The front the running Node's uWS build needs (see UwsBuild.answersEveryHead), or undefined when it answers every head itself. */
export function frontForRuntime(logger: Logger): Http1Front | undefined {
  return uwsBuildFor(currentRuntime()).build.answersEveryHead ? undefined : new Http1Front({ logger });
}
