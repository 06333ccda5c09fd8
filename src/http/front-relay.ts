// One client connection that the Http1Front relays to uWS's unix socket, from its first (judged) head on: requests
// paced by a RequestPipeline (uWS sees the next one only once the answer before it is out), uWS's answers followed by an
// AnswerTracker, a PROXY v2 header first so uWS reports the client's address.
import { connect, type Socket } from 'node:net';
import { AnswerTracker } from './answer-tracker';
import { proxyV2Header } from './proxy-header';
import type { HeadVerdict } from './request-head';
import { RequestPipeline } from './request-pipeline';

/** How long a client may go on sending after uWS closed its connection (RFC 9112 section 9.6's lingering close). */
const LINGER_MS = 2000;

/** What a relay needs from the front. */
export interface FrontRelayDeps {
  /** uWS's unix socket. */
  backendPath: string;
  /** The longest request head passed on (longer: 431). */
  headLimit: number;
  /** Answers a refused head on the client and closes it. */
  refuse: (verdict: Extract<HeadVerdict, { code: string }>) => void;
}

/** Relays `client` to uWS: the judged first `head`, then `rest` and all the client sends after, one request at a time. */
export class FrontRelay {
  /** The connection to uWS. */
  readonly upstream: Socket;
  /** Resolves once the first head is written to uWS's socket, or the connection to it closed. */
  readonly delivered: Promise<void>;
  private readonly pipeline: RequestPipeline;
  private readonly tracker: AnswerTracker;
  private forwarding = true;
  private draining = false;
  private clientEnded = false;
  private upstreamEnded = false;
  private written: () => void = () => undefined;

  constructor(
    private readonly client: Socket,
    deps: FrontRelayDeps,
    head: Buffer,
    rest: Buffer,
  ) {
    this.upstream = connect({ path: deps.backendPath, allowHalfOpen: true });
    this.upstream.write(proxyV2Header({ address: client.remoteAddress, port: client.remotePort }, { address: client.localAddress, port: client.localPort }));
    this.delivered = new Promise<void>((resolve) => {
      this.written = resolve;
      this.upstream.once('close', () => resolve());
    });
    this.tracker = new AnswerTracker({ answered: () => this.pipeline.answered(), tunnel: () => this.pipeline.tunnel() });
    this.pipeline = new RequestPipeline(
      {
        forward: (bytes) => this.forward(bytes),
        sent: (method) => this.tracker.expect(method),
        refuse: (verdict) => {
          this.forwarding = false;
          this.upstream.end();
          deps.refuse(verdict);
        },
        changed: () => this.flow(),
      },
      deps.headLimit,
    );
    this.wire();
    this.pipeline.feedJudged(head);
    this.pipeline.feed(rest);
  }

  private wire(): void {
    const { client, upstream } = this;
    holdDestroyUntilRead(upstream, () => this.stopForwarding());
    client.on('data', (chunk: Buffer) => {
      if (this.forwarding) this.pipeline.feed(chunk);
    });
    client.on('end', () => {
      this.clientEnded = true;
      this.flow();
    });
    upstream.pipe(client);
    upstream.on('data', (chunk: Buffer) => this.tracker.feed(chunk));
    // uWS's FIN comes after all it sent: forward nothing more
    const close = () => {
      this.stopForwarding();
      lingerClose(client);
    };
    upstream.on('end', close);
    upstream.on('error', () => upstream.destroy());
    upstream.on('close', close);
    client.on('close', () => upstream.destroy());
  }

  private forward(bytes: Buffer): void {
    if (!this.forwarding || this.upstream.write(bytes, this.written)) return;
    this.draining = true;
    this.upstream.once('drain', () => {
      this.draining = false;
      this.flow();
    });
  }

  /** Reads from the client only what can go on soon: requests beyond the head limit wait in its socket, not in memory. */
  private flow(): void {
    if (!this.forwarding) return;
    if (this.clientEnded && !this.pipeline.holding()) {
      if (!this.upstreamEnded) this.upstream.end();
      this.upstreamEnded = true;
    } else if (this.draining || !this.pipeline.wantsData()) {
      this.client.pause();
    } else {
      this.client.resume();
    }
  }

  /** What the client still sends is read and dropped; its side closes once uWS's side did. */
  private stopForwarding(): void {
    this.forwarding = false;
    this.client.resume();
  }
}

/**
 * uWS closed its side (or the front refused): the client gets what was sent, then FIN; what it still sends is read and
 * dropped for a while, so no reset reaches it before it read the answer (a reset makes its kernel discard unread bytes).
 */
export function lingerClose(client: Socket): void {
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
