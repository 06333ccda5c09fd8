// A uWS request body as a Node Readable, with backpressure (uWS pause/resume): for bodies that go to disk, never held whole in memory.
import { Readable } from 'node:stream';
import type { HttpResponse } from './uws';

/** Bytes buffered in the Readable before uWS stops reading the client. */
const HIGH_WATER_MARK = 256 * 1024;

/** A body being received: its stream for the handler, and how the server finishes it once the answer is known. */
export interface BodyStream {
  /** The body's bytes, in order; it ends at the last byte, and errors when the client goes away. */
  stream: Readable;
  /** True once uWS has handed over the last byte (whether or not the handler read them all). */
  received(): boolean;
  /**
   * Drops what the handler did not read and calls `then` once the rest of the body has arrived; when more than `limit`
   * further bytes are declared or arrive it calls `then(true)` at once: the answer must then close the connection.
   */
  discard(limit: number, then: (close: boolean) => void): void;
  /** The client went away: the stream errors. */
  aborted(): void;
}

/** Starts receiving `res`'s body of `declared` bytes (null: chunked); call synchronously in the uWS handler, after onAborted. */
export function streamBody(res: HttpResponse, declared: number | null): BodyStream {
  let last = false;
  let arrived = 0;
  let discarding: { limit: number; seen: number; then: (close: boolean) => void } | null = null;
  let paused = false;
  const stream = new Readable({
    highWaterMark: HIGH_WATER_MARK,
    read() {
      if (!paused) return;
      paused = false;
      res.resume();
    },
  });
  // the handler's read sees the error; one that no longer reads must not make it an uncaught exception
  stream.on('error', () => undefined);
  res.onData((chunk, isLast) => {
    if (discarding) {
      discarding.seen += chunk.byteLength;
      const over = discarding.seen > discarding.limit;
      if (isLast || over) {
        last = isLast;
        const { then } = discarding;
        discarding.then = () => undefined;
        then(over && !isLast);
      }
      return;
    }
    arrived += chunk.byteLength;
    // uWS reuses the chunk's memory after this callback returns: it is copied now
    const more = stream.push(Buffer.from(new Uint8Array(chunk)));
    if (isLast) {
      last = true;
      stream.push(null);
    } else if (!more && !paused) {
      paused = true;
      res.pause();
    }
  });
  return {
    stream,
    received: () => last,
    discard(limit, then) {
      stream.destroy();
      // uWS may hand over the last chunks of a read after pause(): a socket left paused would never be read again
      if (paused) {
        paused = false;
        res.resume();
      }
      if (last) return then(false);
      if (declared !== null && declared - arrived > limit) return then(true);
      discarding = { limit, seen: 0, then };
    },
    aborted() {
      if (!last) stream.destroy(new Error('the client went away before the body ended'));
    },
  };
}
