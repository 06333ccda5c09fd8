// Static mounts (a web console's built files): which file a GET or HEAD path names, and the answer for it.
import { AppError } from '../errors';
import { pickEncoding } from './accept-encoding';
import { StaticAssets, type StaticAsset } from './static-assets';
import type { StaticFiles } from './static-dir';
import { staticPathOf } from './static-path';

/** One folder of files served below a URL prefix. */
export interface StaticMount {
  /** URL path prefix, starting and ending with '/': '/' or '/console/'. */
  urlPrefix: string;
  /** Where the files come from (`staticDirectory(dir)`). */
  files: StaticFiles;
  /** A single-page app: unknown paths that look like a page (no extension, or `Accept: text/html`) get the root `index.html`. */
  spa?: boolean;
  /** Headers added to every answer of this mount (200, 304 and 308): a page's Content-Security-Policy, say. */
  headers?: Readonly<Record<string, string>>;
}

/** What the static answer depends on: the raw (percent-encoded) path and query, and three request headers. */
export interface StaticRequest {
  path: string;
  query: string;
  acceptEncoding: string;
  ifNoneMatch: string;
  accept: string;
}

/** A static answer: status, headers (Content-Length aside) and the body, null for 304 and 308. */
export interface StaticAnswer {
  status: 200 | 304 | 308;
  headers: Record<string, string>;
  body: Buffer | null;
}

const INDEX = 'index.html';

interface Mounted {
  prefix: string;
  files: StaticFiles;
  spa: boolean;
  headers: Readonly<Record<string, string>>;
  assets: StaticAssets;
}

/** Answers GET and HEAD below the static mounts; the longest matching prefix wins. */
export class StaticSite {
  private readonly mounts: Mounted[];

  constructor(mounts: readonly StaticMount[]) {
    for (const m of mounts) if (!m.urlPrefix.startsWith('/') || !m.urlPrefix.endsWith('/')) throw new Error(`static mount prefix must start and end with '/': ${m.urlPrefix}`);
    this.mounts = mounts
      .map((m) => ({ prefix: m.urlPrefix, files: m.files, spa: m.spa ?? false, headers: m.headers ?? {}, assets: new StaticAssets(m.files) }))
      .sort((a, b) => b.prefix.length - a.prefix.length);
  }

  /** True when a mount covers `path` (its prefix, or the prefix without its final '/'). */
  covers(path: string): boolean {
    return this.mountOf(path) !== null;
  }

  /** The answer for a covered path; rejects with INVALID_REQUEST (a path that climbs) or NOT_FOUND. */
  async answer(request: StaticRequest): Promise<StaticAnswer> {
    const mount = this.mountOf(request.path);
    if (!mount) throw notFound(request.path);
    const answer = await this.answerIn(mount, request);
    return { ...answer, headers: { ...mount.headers, ...answer.headers } };
  }

  private async answerIn(mount: Mounted, request: StaticRequest): Promise<StaticAnswer> {
    if (request.path.length < mount.prefix.length) return redirect(`${mount.prefix}${request.query ? `?${request.query}` : ''}`);
    const path = staticPathOf(request.path.slice(mount.prefix.length));
    const kind = mount.files.kind(path.endsWith('/') ? path.slice(0, -1) : path);
    if (kind === 'dir' && path !== '' && !path.endsWith('/')) return redirect(`${request.path}/${request.query ? `?${request.query}` : ''}`);
    const file = this.fileFor(mount, path, kind, request.accept);
    if (!file) throw notFound(request.path);
    return respond(await mount.assets.get(file), request);
  }

  private mountOf(path: string): Mounted | null {
    return this.mounts.find((m) => path.startsWith(m.prefix) || path === m.prefix.slice(0, -1)) ?? null;
  }

  private fileFor(mount: Mounted, path: string, kind: 'file' | 'dir' | null, accept: string): string | null {
    if (kind === 'file' && !path.endsWith('/')) return path;
    const index = path === '' ? INDEX : `${path.replace(/\/$/, '')}/${INDEX}`;
    if (kind === 'dir' && mount.files.kind(index) === 'file') return index;
    const page = !/\.[^/]*$/.test(path) || accept.includes('text/html');
    return mount.spa && page && mount.files.kind(INDEX) === 'file' ? INDEX : null;
  }
}

async function respond(asset: StaticAsset, request: StaticRequest): Promise<StaticAnswer> {
  const rep = await asset.representation(pickEncoding(request.acceptEncoding));
  const headers: Record<string, string> = { ETag: rep.etag, 'Cache-Control': asset.cacheControl };
  if (asset.compressible) headers.Vary = 'Accept-Encoding';
  if (matchesEtag(request.ifNoneMatch, rep.etag)) return { status: 304, headers, body: null };
  headers['Content-Type'] = asset.contentType;
  headers['X-Content-Type-Options'] = 'nosniff';
  if (rep.coding) headers['Content-Encoding'] = rep.coding;
  return { status: 200, headers, body: rep.body };
}

/** If-None-Match with weak comparison (RFC 9110 section 13.1.2): `*` or any listed tag equal to `etag`, `W/` ignored. */
function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

function redirect(location: string): StaticAnswer {
  return { status: 308, headers: { Location: location }, body: null };
}

function notFound(path: string): AppError {
  return new AppError('NOT_FOUND', `no file at ${path}`);
}
