// One static file prepared for serving: content type, ETag, Cache-Control, and its compressed forms, each made once and kept.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { ContentCoding } from './accept-encoding';
import { contentTypeOf, isCompressible } from './content-types';
import { cacheControlOf } from './static-cache-control';
import type { StaticFiles } from './static-dir';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** One representation of a file: its bytes and its strong ETag (quoted). */
export interface Representation {
  body: Buffer;
  etag: string;
  coding: ContentCoding | null;
}

/** A file ready to serve. */
export interface StaticAsset {
  contentType: string;
  cacheControl: string;
  /** True when the type is compressible: the answer then varies by Accept-Encoding. */
  compressible: boolean;
  /** The representation for `coding` (the identity when null, when the type is not compressible, or when compressing gains nothing). */
  representation(coding: ContentCoding | null): Promise<Representation>;
}

/** Brotli 9 rather than 11: near the same size for small files, several times faster on the device's slow CPU. */
const BROTLI_QUALITY = 9;

/** Prepares files on first request and keeps them (content, hash and each compressed form) until the process ends. */
export class StaticAssets {
  private readonly assets = new Map<string, Promise<StaticAsset>>();

  constructor(private readonly files: StaticFiles) {}

  /** The asset of a listed file; rejects when it cannot be read (and forgets the failure, so a later request retries). */
  get(path: string): Promise<StaticAsset> {
    let asset = this.assets.get(path);
    if (!asset) {
      asset = this.files.read(path).then((body) => prepare(path, body));
      asset.catch(() => this.assets.delete(path));
      this.assets.set(path, asset);
    }
    return asset;
  }
}

function prepare(path: string, body: Buffer): StaticAsset {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  const identity: Representation = { body, etag: `"${hash}"`, coding: null };
  const compressible = isCompressible(path);
  const encoded = new Map<ContentCoding, Promise<Representation>>();
  return {
    contentType: contentTypeOf(path),
    cacheControl: cacheControlOf(path),
    compressible,
    representation(coding) {
      if (!coding || !compressible) return Promise.resolve(identity);
      let rep = encoded.get(coding);
      if (!rep) {
        rep = compress(body, coding).then((bytes) => (bytes.length < body.length ? { body: bytes, etag: `"${hash}-${coding}"`, coding } : identity)).catch(() => identity);
        encoded.set(coding, rep);
      }
      return rep;
    },
  };
}

function compress(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  if (coding === 'gzip') return gzipAsync(body, { level: 9 });
  return brotli(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}
