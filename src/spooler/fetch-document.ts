// Fetches `*_url` content: http/https only, a time limit, at most 5 redirects, and the body limit.
import { DeviceError } from '../errors';

/** Limits of one fetch. */
export interface FetchLimits {
  timeoutMs: number;
  maxRedirects: number;
  maxBytes: number;
}

/** Downloads `url`; rejects with DeviceError FETCH_FAILED naming the URL and the HTTP status or error. */
export async function fetchDocument(url: string, limits: FetchLimits, signal?: AbortSignal): Promise<Buffer> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let current = url;
  try {
    for (let hop = 0; hop <= limits.maxRedirects; hop += 1) {
      assertHttp(current);
      const res = await fetch(current, { redirect: 'manual', signal: combined });
      if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
        await res.body?.cancel();
        current = new URL(res.headers.get('location')!, current).toString();
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new DeviceError('FETCH_FAILED', `fetching ${url} failed: HTTP ${res.status}`);
      }
      return await readLimited(res, url, limits.maxBytes);
    }
    throw new DeviceError('FETCH_FAILED', `fetching ${url} failed: more than ${limits.maxRedirects} redirects`);
  } catch (err) {
    if (err instanceof DeviceError) throw err;
    if (timeout.aborted) throw new DeviceError('FETCH_FAILED', `fetching ${url} failed: no complete answer within ${limits.timeoutMs / 1000} s`);
    if (signal?.aborted) throw new DeviceError('CANCELED', 'Canceled');
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new DeviceError('FETCH_FAILED', `fetching ${url} failed: ${cause?.code ?? cause?.message ?? (err as Error).message}`);
  }
}

function assertHttp(url: string): void {
  const protocol = new URL(url).protocol;
  if (protocol !== 'http:' && protocol !== 'https:') throw new DeviceError('FETCH_FAILED', `fetching ${url} failed: only http and https URLs are allowed`);
}

async function readLimited(res: Response, url: string, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) throw new DeviceError('FETCH_FAILED', `fetching ${url} failed: document of ${declared} bytes exceeds the limit of ${maxBytes}`);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body ?? []) {
    total += chunk.byteLength;
    if (total > maxBytes) throw new DeviceError('FETCH_FAILED', `fetching ${url} failed: document exceeds the limit of ${maxBytes} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks, total);
}
