// One POST of a JSON body to a receiver over node:http or node:https, bounded in time; never throws.
import http from 'node:http';
import https from 'node:https';

/** What came back: the HTTP status, or why there was none (`error`). */
export interface PostOutcome {
  status: number | null;
  error: string | null;
}

/** Posts `body` to `url` with `headers`; resolves once the answer's status is known and its body read (or dropped at the limit). */
export type HttpPost = (url: string, headers: Record<string, string>, body: string, limits: { timeoutMs: number; signal: AbortSignal }) => Promise<PostOutcome>;

/**
 * The HttpPost of the daemon: no redirects followed, no connection kept, certificates verified. A status that arrived within
 * `timeoutMs` counts even when the answer's body is still coming; no status by then (or an abort) is an error.
 */
export const httpPost: HttpPost = (url, headers, body, { timeoutMs, signal }) =>
  new Promise((resolve) => {
    let status: number | null = null;
    let request: http.ClientRequest | null = null;
    let settled = false;
    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      request?.destroy();
      resolve(status !== null ? { status, error: null } : { status: null, error });
    };
    const onAbort = () => finish('the daemon stopped before an answer');
    const timer = setTimeout(() => finish(`no answer within ${timeoutMs} ms`), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const target = new URL(url);
      const send = target.protocol === 'https:' ? https.request : http.request;
      request = send(target, { method: 'POST', agent: false, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
        status = res.statusCode ?? null;
        res.on('end', () => finish(null));
        res.on('error', () => finish(null));
        res.resume();
      });
      request.on('error', (err) => finish(err.message || (err as NodeJS.ErrnoException).code || 'connection failed'));
      request.end(body);
    } catch (err) {
      finish((err as Error).message);
    }
    if (signal.aborted) onAbort();
  });
