// Reads a uWS request body into one Buffer with a hard byte limit.
import type { HttpResponse } from './uws';
import { AppError } from '../errors';

/**
 * Collects the body of `res` (call synchronously in the handler, after onAborted).
 * Rejects with PAYLOAD_TOO_LARGE as soon as more than `limit` bytes arrive (or Content-Length says so).
 */
export function readBody(res: HttpResponse, limit: number, declaredLength: number | null): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (declaredLength !== null && declaredLength > limit) {
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    let failed = false;
    res.onData((chunk, isLast) => {
      if (failed) return;
      total += chunk.byteLength;
      if (total > limit) {
        failed = true;
        reject(tooLarge(limit));
        return;
      }
      // uWS reuses the chunk's memory after this callback returns: copy it.
      chunks.push(Buffer.from(new Uint8Array(chunk).slice()));
      if (isLast) resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total));
    });
  });
}

function tooLarge(limit: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `request body exceeds the limit of ${limit} bytes`);
}
