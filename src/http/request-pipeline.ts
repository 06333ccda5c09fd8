// The requests of one client connection, passed to uWS one at a time: uWS closes a connection whose next request
// arrives while an answer is pending (it takes pipelining only when every answer is synchronous), so a request the
// client pipelined waits here until the answer before it has been sent in full (RFC 9112 section 9.3.2: answered in order).
import { ChunkedFramingError } from '../errors';
import { ChunkedBody } from './chunked-body';
import { methodOf, requestFraming } from './message-framing';
import { headEnd, judgeHead, overLongHead, type HeadVerdict } from './request-head';

/** Where the pipeline sends what it decides. */
export interface PipelineSink {
  /** Bytes of the current request (head or body), for uWS. */
  forward(bytes: Buffer): void;
  /** A request's head was passed on: its answer is the next one expected (method upper case). */
  sent(method: string): void;
  /** A head is refused (400, 431, 505): answer it and close; every answer before it has been sent. */
  refuse(verdict: Extract<HeadVerdict, { code: string }>): void;
  /** `wantsData` or `holding` may have changed. */
  changed(): void;
}

const EMPTY = Buffer.alloc(0);
const CRLF = Buffer.from('\r\n');

/** Splits a client's byte stream into requests and passes each on once the answers before it are out. */
export class RequestPipeline {
  private held: Buffer = EMPTY;
  private state: 'head' | 'length' | 'chunked' | 'raw' | 'refused' = 'head';
  private remaining = 0;
  private chunked: ChunkedBody | null = null;
  /** Requests passed on whose final answer has not been sent in full. */
  private outstanding = 0;

  constructor(
    private readonly sink: PipelineSink,
    private readonly headLimit: number,
  ) {}

  /**
   * False once the requests waiting for the answer before them reach the head limit: the rest waits in the client's
   * socket. Below that the client is still read, so a client that hangs up while its answer is pending is seen at once.
   */
  wantsData(): boolean {
    if (this.state === 'refused') return false;
    return !(this.state === 'head' && this.outstanding > 0 && this.held.length >= this.headLimit);
  }

  /** True while bytes the client sent are not yet passed on (a request waiting for the answer before it). */
  holding(): boolean {
    return this.held.length > 0;
  }

  /** Bytes the client sent, in order. */
  feed(bytes: Buffer): void {
    this.held = this.held.length === 0 ? bytes : Buffer.concat([this.held, bytes]);
    this.run();
  }

  /** A head the front has judged already (the connection's first), passed on as it is. */
  feedJudged(head: Buffer): void {
    this.pass(head);
  }

  /** A final answer has been sent in full: the next request may go. */
  answered(): void {
    this.outstanding = Math.max(0, this.outstanding - 1);
    this.run();
  }

  /** The connection is no longer HTTP (a WebSocket after 101, or framing that cannot be followed): pass everything on. */
  tunnel(): void {
    if (this.state !== 'refused') this.state = 'raw';
    this.run();
  }

  private run(): void {
    while (this.held.length > 0 && this.step());
    this.sink.changed();
  }

  /** Handles what it can of `held`; false when it must wait (for bytes or for an answer). */
  private step(): boolean {
    switch (this.state) {
      case 'raw':
        return this.forward(this.held.length);
      case 'length': {
        const take = Math.min(this.remaining, this.held.length);
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'head';
        return this.forward(take);
      }
      case 'chunked':
        return this.chunkedStep();
      case 'head':
        return this.outstanding === 0 && this.headStep();
      case 'refused':
        this.held = EMPTY;
        return false;
    }
  }

  private chunkedStep(): boolean {
    let end: number;
    try {
      end = this.chunked!.scan(this.held);
    } catch (err) {
      if (!(err instanceof ChunkedFramingError)) throw err;
      // uWS judges a body it cannot frame either (400 and close): from here on the bytes go as they come
      this.state = 'raw';
      return true;
    }
    const trailer = this.chunked!.trailerStart;
    if (trailer < 0) return this.forward(end < 0 ? this.held.length : end);
    // trailer fields are dropped (RFC 9112 7.1.2 lets a recipient discard them): uWS 20.30 answers nothing after them
    if (trailer > 0) this.sink.forward(this.held.subarray(0, trailer));
    this.held = end < 0 ? EMPTY : this.held.subarray(end);
    if (end < 0) return true;
    this.sink.forward(CRLF);
    this.state = 'head';
    this.chunked = null;
    return true;
  }

  private headStep(): boolean {
    const end = headEnd(this.held);
    if (end < 0 && this.held.length < this.headLimit) return false;
    if (end < 0 || end > this.headLimit) return this.refuse(overLongHead(this.held, this.headLimit));
    const verdict = judgeHead(this.held.subarray(0, end));
    if ('code' in verdict) return this.refuse(verdict);
    this.held = this.held.subarray(end);
    this.pass(verdict.pass);
    return true;
  }

  private pass(head: Buffer): void {
    const text = head.toString('latin1');
    const framing = requestFraming(text);
    this.outstanding += 1;
    this.sink.sent(methodOf(text));
    this.sink.forward(head);
    if (framing.kind === 'unknown') {
      // uWS refuses such a request (400 or close); what follows cannot be split into requests
      this.state = 'raw';
    } else if (framing.kind === 'chunked') {
      this.state = 'chunked';
      this.chunked = new ChunkedBody();
    } else if (framing.bytes > 0) {
      this.state = 'length';
      this.remaining = framing.bytes;
    }
  }

  private forward(bytes: number): boolean {
    if (bytes > 0) this.sink.forward(this.held.subarray(0, bytes));
    this.held = bytes >= this.held.length ? EMPTY : this.held.subarray(bytes);
    return true;
  }

  private refuse(verdict: HeadVerdict): boolean {
    this.state = 'refused';
    this.held = EMPTY;
    if ('code' in verdict) this.sink.refuse(verdict);
    return false;
  }
}
