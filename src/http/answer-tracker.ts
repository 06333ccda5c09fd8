// Follows the answers uWS writes on one relayed connection, to tell the request pipeline when each has been sent in full.
import { ChunkedBody } from './chunked-body';
import { answerFraming } from './message-framing';

/** What the tracker reports: a final answer ended, or a 101 turned the connection into a tunnel. */
export interface AnswerEvents {
  answered(): void;
  tunnel(): void;
}

/** An answer head longer than this is not uWS's: the tracker stops following (and reports a tunnel). */
const MAX_ANSWER_HEAD = 64 * 1024;

/** Reads the byte stream of answers on one connection; `expect` is told the method of each request in the order sent. */
export class AnswerTracker {
  private readonly methods: string[] = [];
  private head: Buffer[] = [];
  private headBytes = 0;
  private remaining = 0;
  private chunked: ChunkedBody | null = null;
  private state: 'head' | 'length' | 'chunked' | 'tunnel' = 'head';

  constructor(private readonly events: AnswerEvents) {}

  /** A request of `method` (upper case) was sent: its answer comes after those of the requests before it. */
  expect(method: string): void {
    this.methods.push(method);
  }

  /** Takes the next bytes uWS wrote (any split); reports each answer that ends in them. */
  feed(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length && this.state !== 'tunnel') {
      if (this.state === 'length') at = this.body(chunk, at);
      else if (this.state === 'chunked') at = this.chunks(chunk, at);
      else at = this.readHead(chunk, at);
    }
  }

  private body(chunk: Buffer, at: number): number {
    const take = Math.min(this.remaining, chunk.length - at);
    this.remaining -= take;
    if (this.remaining === 0) this.ended();
    return at + take;
  }

  private chunks(chunk: Buffer, at: number): number {
    let end: number;
    try {
      end = this.chunked!.scan(chunk, at);
    } catch {
      return this.lost();
    }
    if (end < 0) return chunk.length;
    this.ended();
    return end;
  }

  /** Gathers a head up to its empty line (it may span chunks); returns where its body starts in `chunk`. */
  private readHead(chunk: Buffer, at: number): number {
    const carried = this.headBytes;
    const joined = carried === 0 ? chunk.subarray(at) : Buffer.concat([...this.head, chunk.subarray(at)]);
    const end = joined.indexOf('\r\n\r\n');
    if (end < 0) {
      this.head.push(chunk.subarray(at));
      this.headBytes += chunk.length - at;
      return this.headBytes > MAX_ANSWER_HEAD ? this.lost() : chunk.length;
    }
    this.head = [];
    this.headBytes = 0;
    this.begin(joined.subarray(0, end + 4).toString('latin1'));
    return at + end + 4 - carried;
  }

  private begin(head: string): void {
    const framing = answerFraming(head, this.methods[0] ?? 'GET');
    if (framing.kind === 'interim') return;
    if (framing.kind === 'tunnel' || framing.kind === 'unknown') {
      this.lost();
      return;
    }
    if (framing.kind === 'chunked') {
      this.chunked = new ChunkedBody();
      this.state = 'chunked';
      return;
    }
    this.remaining = framing.bytes;
    this.state = 'length';
    if (framing.bytes === 0) this.ended();
  }

  private ended(): void {
    this.methods.shift();
    this.state = 'head';
    this.chunked = null;
    this.events.answered();
  }

  /** From here on the bytes are not answers to follow (a WebSocket, or framing we cannot read): report a tunnel. */
  private lost(): number {
    this.state = 'tunnel';
    this.events.tunnel();
    return Number.MAX_SAFE_INTEGER;
  }
}
