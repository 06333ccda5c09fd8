// One POST of a JSON body to a receiver over node:http or node:https, bounded in time, to the addresses a fetch may reach; never throws.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { fetchRefused, guardedLookup, refusedAddress } from '../spooler/fetch-address';

/** What came back: the HTTP status, or why there was none (`error`). */
export interface PostOutcome {
  status: number | null;
  error: string | null;
}

/** Posts `body` to `url` with `headers`; resolves once the answer's status is known and its body read (or dropped at the limit). */
export type HttpPost = (url: string, headers: Record<string, string>, body: string, limits: { timeoutMs: number; signal: AbortSignal }) => Promise<PostOutcome>;

/** Why an attempt got no answer, whatever the socket said: one message, so that errors never tell an open port from a closed one. */
export const NO_ANSWER = 'could not get an answer';

/**
 * The HttpPost of the daemon: no redirects followed, no connection kept, certificates verified, the receiver's address
 * guarded as for a fetch (`lookup`, guardedLookup() by default; an IP literal is checked as written): a refused address is
 * the error `fetch refused`, any other failure to connect or read `could not get an answer`. A status that arrived within
 * `timeoutMs` counts even when the answer's body is still coming; no status by then (or an abort) is an error.
 */
export function httpPoster(lookup: ReturnType<typeof guardedLookup> = guardedLookup()): HttpPost {
  return (url, headers, body, { timeoutMs, signal }) =>
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
        const host = target.hostname.replace(/^\[|\]$/g, '');
        if (isIP(host) && refusedAddress(host)) throw fetchRefused();
        const send = target.protocol === 'https:' ? https.request : http.request;
        request = send(target, { method: 'POST', agent: false, lookup, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
          status = res.statusCode ?? null;
          res.on('end', () => finish(null));
          res.on('error', () => finish(null));
          res.resume();
        });
        request.on('error', (err) => finish(attemptError(err)));
        request.end(body);
      } catch (err) {
        finish(attemptError(err));
      }
      if (signal.aborted) onAbort();
    });
}

/** The daemon's HttpPost, with the guarded DNS lookup. */
export const httpPost: HttpPost = httpPoster();

function attemptError(err: unknown): string {
  const refused = fetchRefused().message;
  return (err as Error | null)?.message === refused ? refused : NO_ANSWER;
}
