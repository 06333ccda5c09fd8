// Downloads a bundle by URL into a partial file on the data partition, resuming with HTTP Range where a broken transfer stopped.
import { promises as fs } from 'node:fs';
import { Readable } from 'node:stream';
import { BundleCheckError } from '../errors';
import { appendStream, hashOfPrefix, sizeOf } from './bundle-file';

/** Collaborators and limits of one download. */
export interface DownloadDeps {
  /** Longest wait between attempts after a broken transfer, in ms (attempt n waits min(n * retryMs, 30 s)). */
  retryMs: number;
  /** Attempts in a row that add no byte before the download fails. */
  maxStalls: number;
  /** An attempt that receives nothing for this long is given up (and the next one resumes), in ms. */
  idleMs: number;
  /** Told the bytes in the file after each chunk. */
  onBytes: (bytes: number) => void;
  signal: AbortSignal;
}

/**
 * Fetches `url` into `file` until it holds `size` bytes whose SHA-256 is `sha256`; bytes already in `file` (a partial
 * download kept from before) are kept and the rest asked with `Range: bytes=N-`. A server that ignores Range (200) starts
 * the file over. Rejects with BundleCheckError: `size` when the server has more or fewer bytes, `sha256` when the hash
 * differs (the file is then removed), `download` after `maxStalls` attempts in a row without a new byte.
 */
export async function downloadBundle(url: string, file: string, size: number, sha256: string, deps: DownloadDeps): Promise<void> {
  let have = await sizeOf(file);
  if (have > size) {
    await fs.rm(file, { force: true });
    have = 0;
  }
  let stalls = 0;
  let lastError = '';
  while (have < size) {
    const before = have;
    try {
      have = await attempt(url, file, have, size, deps);
    } catch (err) {
      if (err instanceof BundleCheckError) throw err;
      lastError = err instanceof Error ? err.message : String(err);
      have = await sizeOf(file);
    }
    if (deps.signal.aborted) throw new BundleCheckError('download', 'the download was stopped');
    if (have > before) stalls = 0;
    else stalls += 1;
    if (have >= size) break;
    if (stalls >= deps.maxStalls) throw new BundleCheckError('download', `the download of ${url} stopped at ${have} of ${size} bytes: ${lastError || 'the server sent no more'}`);
    await delay(Math.min(stalls * deps.retryMs, 30_000), deps.signal);
  }
  const hash = (await hashOfPrefix(file, size)).digest('hex');
  if (hash !== sha256.toLowerCase()) {
    await fs.rm(file, { force: true });
    throw new BundleCheckError('sha256', `sha256 of the download is ${hash}, not ${sha256.toLowerCase()}`);
  }
}

/** One request from byte `have`; resolves with the bytes in the file after it. */
async function attempt(url: string, file: string, have: number, size: number, deps: DownloadDeps): Promise<number> {
  const idle = new AbortController();
  let timer = setTimeout(() => idle.abort(new Error(`nothing received for ${deps.idleMs} ms`)), deps.idleMs);
  const awake = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(new Error(`nothing received for ${deps.idleMs} ms`)), deps.idleMs);
  };
  try {
    return await transfer(url, file, have, size, deps, AbortSignal.any([deps.signal, idle.signal]), awake);
  } finally {
    clearTimeout(timer);
  }
}

async function transfer(url: string, file: string, have: number, size: number, deps: DownloadDeps, signal: AbortSignal, awake: () => void): Promise<number> {
  const res = await fetch(url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {}, signal, redirect: 'follow' });
  if (res.status === 200 && have > 0) {
    // Range not honoured: the whole file again
    await fs.truncate(file, 0);
    have = 0;
  } else if (res.status === 416) {
    throw new BundleCheckError('size', `the server has fewer than ${have + 1} bytes; the bundle's size is ${size}`);
  } else if (res.status !== 200 && res.status !== 206) {
    await res.body?.cancel();
    throw new Error(`${url} answered HTTP ${res.status}`);
  }
  const total = res.status === 200 ? Number(res.headers.get('content-length') ?? NaN) : rangeTotal(res.headers.get('content-range'));
  if (Number.isFinite(total) && total !== size) {
    await res.body?.cancel();
    throw new BundleCheckError('size', `the server's bundle is ${total} bytes, not ${size}`);
  }
  if (!res.body) return have;
  let now = have;
  const counted = async function* (source: AsyncIterable<Uint8Array>) {
    for await (const chunk of source) {
      awake();
      yield chunk;
      now += chunk.byteLength;
      deps.onBytes(now);
    }
  };
  try {
    await appendStream(counted(Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>)), file, null, size, have);
  } catch (err) {
    if (err instanceof BundleCheckError) {
      await fs.rm(file, { force: true });
      throw new BundleCheckError('size', `the server sent more than ${size} bytes`);
    }
    throw err;
  }
  return sizeOf(file);
}

/** The complete length of a `Content-Range: bytes a-b/total` header; NaN when absent or `*`. */
function rangeTotal(header: string | null): number {
  const match = header ? /\/(\d+)\s*$/.exec(header) : null;
  return match ? Number(match[1]) : NaN;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
