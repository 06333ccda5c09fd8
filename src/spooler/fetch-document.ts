// Fetches `*_url` content: http/https only, never to link-local, multicast or unspecified addresses (checked on the
// address connected to, on every redirect), a time limit, at most 5 redirects, and the body limit.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { DeviceError } from '../errors';
import { fetchRefused, guardedLookup, refusedAddress } from './fetch-address';

/** Limits of one fetch. */
export interface FetchLimits {
  timeoutMs: number;
  maxRedirects: number;
  maxBytes: number;
}

const lookup = guardedLookup();

/**
 * Downloads `url`; rejects with DeviceError FETCH_FAILED naming the URL (password masked) and the HTTP status, or
 * `fetch refused` alone for a refused address, or one message for every connection failure (refused, reset,
 * unreachable), so a job error never tells an open port from a closed one.
 */
export async function fetchDocument(url: string, limits: FetchLimits, signal?: AbortSignal): Promise<Buffer> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const shown = maskUrl(url);
  let current = url;
  try {
    for (let hop = 0; hop <= limits.maxRedirects; hop += 1) {
      const target = checkedTarget(current, shown);
      const res = await get(target, combined);
      const location = res.headers.location;
      if (res.statusCode !== undefined && res.statusCode >= 300 && res.statusCode < 400 && location) {
        res.destroy();
        current = new URL(location, target).toString();
        continue;
      }
      if (res.statusCode === undefined || res.statusCode < 200 || res.statusCode >= 300) {
        res.destroy();
        throw new DeviceError('FETCH_FAILED', `fetching ${shown} failed: HTTP ${res.statusCode}`);
      }
      return await readLimited(res, shown, limits.maxBytes);
    }
    throw new DeviceError('FETCH_FAILED', `fetching ${shown} failed: more than ${limits.maxRedirects} redirects`);
  } catch (err) {
    if (err instanceof DeviceError) throw err;
    if (timeout.aborted) throw new DeviceError('FETCH_FAILED', `fetching ${shown} failed: no complete answer within ${limits.timeoutMs / 1000} s`);
    if (signal?.aborted) throw new DeviceError('CANCELED', 'Canceled');
    throw new DeviceError('FETCH_FAILED', `fetching ${shown} failed: could not get the document`);
  }
}

/** `url` with its password replaced by `***`, for logs, job errors and anything the API shows. */
export function maskUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^/@:]*):[^/@]*@/, '//$1:***@');
  }
}

function checkedTarget(url: string, shown: string): URL {
  const target = new URL(url);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new DeviceError('FETCH_FAILED', `fetching ${shown} failed: only http and https URLs are allowed`);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && refusedAddress(host)) throw fetchRefused();
  return target;
}

function get(target: URL, signal: AbortSignal): Promise<http.IncomingMessage> {
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(target, { lookup, signal, agent: false, headers: { 'Accept-Encoding': 'identity' } }, resolve);
    req.on('error', reject);
  });
}

async function readLimited(res: http.IncomingMessage, shown: string, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers['content-length'] ?? NaN);
  if (declared > maxBytes) {
    res.destroy();
    throw new DeviceError('FETCH_FAILED', `fetching ${shown} failed: document of ${declared} bytes exceeds the limit of ${maxBytes}`);
  }
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      res.destroy();
      throw new DeviceError('FETCH_FAILED', `fetching ${shown} failed: document exceeds the limit of ${maxBytes} bytes`);
    }
    chunks.push(chunk);
  }
  if (!res.complete) throw new DeviceError('FETCH_FAILED', `fetching ${shown} failed: could not get the document`);
  return Buffer.concat(chunks, total);
}
