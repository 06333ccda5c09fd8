// Reads a uWS request body into one Buffer with a hard byte limit.
import type { HttpResponse } from './uws';
import { AppError } from '../errors';

/**
 * Collects the body of `res` (call synchronously in the handler, after onAborted).
 * Rejects with PAYLOAD_TOO_LARGE as soon as more than `limit` bytes arrive (or Content-Length says so). Without a
 * declared length the buffer grows as bytes arrive; `admit(size)` is asked first and rejects the read by throwing.
 */
export function readBody(res: HttpResponse, limit: number, declaredLength: number | null, admit: (size: number) => void = () => undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (declaredLength !== null && declaredLength > limit) {
      reject(tooLarge(limit));
      return;
    }
    // one buffer of the declared size, each chunk copied once into it; grown by doubling when no length was declared
    let body: Buffer = Buffer.allocUnsafe(declaredLength ?? 16 * 1024);
    let total = 0;
    let failed = false;
    res.onData((chunk, isLast) => {
      if (failed) return;
      if (total + chunk.byteLength > limit) {
        failed = true;
        reject(tooLarge(limit));
        return;
      }
      if (total + chunk.byteLength > body.length) {
        const size = Math.min(limit, Math.max(body.length * 2, total + chunk.byteLength));
        try {
          admit(size);
        } catch (err) {
          failed = true;
          reject(err);
          return;
        }
        body = grow(body, total, size);
      }
      // uWS reuses the chunk's memory after this callback returns: it is copied now
      body.set(new Uint8Array(chunk), total);
      total += chunk.byteLength;
      if (isLast) resolve(total === body.length ? body : body.subarray(0, total));
    });
  });
}

/** A buffer of `size` bytes holding the first `used` bytes of `from`. */
function grow(from: Buffer, used: number, size: number): Buffer {
  const next = Buffer.allocUnsafe(size);
  from.copy(next, 0, 0, used);
  return next;
}

function tooLarge(limit: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `request body exceeds the limit of ${limit} bytes`);
}
