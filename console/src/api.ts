// The device's JSON API from the browser: the key in X-API-Key (never in a URL), errors turned into sentences.
import type { DeviceEvent } from './types';

/** An API call that failed; `message` is a sentence for the page, `check` the failed check an update refusal names (`content.check`), else null. */
export class ApiError extends Error {
  constructor(readonly status: number, message: string, readonly check: string | null = null) {
    super(message);
  }
}

/** A previewed page: the PNG and the document's page count. */
export interface PreviewPage {
  blob: Blob;
  pages: number;
}

const NO_ANSWER = 'The device did not answer. Check that it is on and reachable, then try again.';

/** Calls below /api/v1 with one key. */
export class Api {
  constructor(private key: string) {}

  /** Uses `key` from now on (after a rotation). */
  setKey(key: string): void {
    this.key = key;
  }

  /** GET; resolves with `result.content`. */
  get<T>(path: string): Promise<T> {
    return this.send<T>('GET', path);
  }

  /** Any method with an optional JSON body; resolves with `result.content`, rejects with ApiError. */
  async send<T>(method: string, path: string, body?: unknown): Promise<T> {
    return contentOf<T>(await this.fetch(method, path, body));
  }

  /** POST with `file` as the whole body (application/octet-stream, streamed by the browser); resolves with `result.content`, rejects with ApiError. */
  async upload<T>(path: string, file: Blob): Promise<T> {
    return contentOf<T>(await this.request(path, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' }, body: file }));
  }

  /** POST /preview/{target}?page=N with a print body; resolves with the PNG. */
  async preview(target: string, body: unknown, page: number): Promise<PreviewPage> {
    const res = await this.fetch('POST', `/preview/${encodeURIComponent(target)}?page=${page}`, body);
    if (!res.ok) throw apiErrorOf(res.status, await res.json().catch(() => null));
    return { blob: await res.blob(), pages: Number(res.headers.get('X-Page-Count') ?? '1') };
  }

  private fetch(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
    return this.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }

  private async request(path: string, init: { method: string; headers: Record<string, string>; body?: BodyInit }): Promise<Response> {
    try {
      return await fetch(`/api/v1${path}`, { ...init, headers: { ...init.headers, 'X-API-Key': this.key }, cache: 'no-store' });
    } catch {
      throw new ApiError(0, NO_ANSWER);
    }
  }
}

/** Whether the device has an API key yet (GET /setup: public, no key sent). */
export async function readSetup(): Promise<{ claimed: boolean }> {
  return keyless<{ claimed: boolean }>('GET', '/setup');
}

/** Sets the first API key of an unclaimed device (POST /setup); rejects with ApiError (409 once it has one). */
export async function claimDevice(apiKey: string): Promise<void> {
  await keyless('POST', '/setup', { apiKey });
}

/** A call to a public route (no X-API-Key); resolves with `result.content`, rejects with ApiError. */
async function keyless<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api/v1${path}`, { method, headers: body === undefined ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new ApiError(0, NO_ANSWER);
  }
  return contentOf<T>(res);
}

/** An answer's `result.content`; a failed answer rejects with its ApiError. */
async function contentOf<T>(res: Response): Promise<T> {
  const json = await res.json().catch(() => null);
  if (!res.ok) throw apiErrorOf(res.status, json);
  return json?.result?.content as T;
}

/** The ApiError of a failed answer: its sentence, and the check an update refusal names. */
function apiErrorOf(status: number, json: any): ApiError {
  const check: unknown = json?.result?.content?.check;
  return new ApiError(status, sentenceOf(status, json), typeof check === 'string' ? check : null);
}

/** The page's sentence for a failed answer: the API's specific text, with its general one. */
function sentenceOf(status: number, json: any): string {
  if (status === 401 && json?.result?.content?.message === 'Device not set up') return 'The device has no API key yet: reload the page to set one.';
  if (status === 401) return 'The device refused the API key: it is wrong, or it was changed.';
  if (status === 429) return 'Too many wrong keys from this address: wait a minute, then try again.';
  const general: string = json?.result?.message ?? `The device answered ${status}`;
  const specific: string | undefined = json?.result?.content?.message ?? json?.result?.content?.errors?.join('; ');
  return specific && specific !== general ? `${general}: ${specific}` : general;
}

/** Whether a message from the socket is an event (not hello, reset or pong). */
export function isEvent(message: unknown): message is DeviceEvent {
  return typeof message === 'object' && message !== null && typeof (message as DeviceEvent).id === 'number' && typeof (message as DeviceEvent).type === 'string';
}
