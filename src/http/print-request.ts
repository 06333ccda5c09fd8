// Turns a POST /print body (JSON or octet-stream) into a submission: document, metadata, options (seed 2.4, 4.5).
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../errors';
import type { ApiRequest } from './route';
import { PrintOptionsSchema, type PrintOptions } from '../schemas/print-options';
import { compileValidator } from '../schemas/validate';
import type { DocumentSpec } from '../spooler/document';
import { allowedLocalPath } from '../spooler/local-files';

/** The seed's content types. */
export const ContentTypeSchema = Type.Union(
  ['pdf_url', 'pdf_base64', 'raw_url', 'raw_base64', 'zpl', 'zpl_base64'].map((t) => Type.Literal(t)),
);

/** JSON body of POST /print/{target} (seed 2.4 plus the lenient top-level `copies` and `paperSize`). */
export const PrintBodySchema = Type.Object(
  {
    content: Type.String({ minLength: 1 }),
    contentType: Type.Optional(ContentTypeSchema),
    title: Type.Optional(Type.String({ maxLength: 512 })),
    source: Type.Optional(Type.String({ maxLength: 512 })),
    wait: Type.Optional(Type.Boolean()),
    options: Type.Optional(PrintOptionsSchema),
    idempotencyKey: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
    copies: Type.Optional(Type.Integer({ minimum: 1, maximum: 9999 })),
    paperSize: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  },
  { additionalProperties: false },
);
/** A JSON print body. */
export type PrintBody = Static<typeof PrintBodySchema>;

const validateOptions = compileValidator(PrintOptionsSchema);

/** A validated print submission, ready for the spooler. */
export interface Submission {
  document: DocumentSpec;
  /** Bytes for inline documents; null for URL and file sources. */
  data: Buffer | null;
  title: string;
  source: string | null;
  wait: boolean;
  options: PrintOptions;
  idempotencyKey: string | null;
}

/** Where local-path content may come from. */
export type AllowedRoots = () => readonly string[];

/** Parses an authenticated print request; throws 400 ApiErrors naming the field. */
export function parsePrintRequest(req: ApiRequest, roots: AllowedRoots): Submission {
  const headerKey = req.headers['idempotency-key'] || null;
  if (req.bodyKind === 'raw') return rawSubmission(req, headerKey);
  if (req.bodyKind !== 'json') throw new AppError('INVALID_REQUEST', 'content is required');
  const body = req.body as PrintBody;
  const options = validateOptions(mergeLenient(body), 'options');
  return {
    ...documentOf(body, roots),
    title: body.title ?? 'Untitled',
    source: body.source ?? null,
    wait: body.wait ?? true,
    options,
    idempotencyKey: body.idempotencyKey ?? headerKey,
  };
}

function rawSubmission(req: ApiRequest, headerKey: string | null): Submission {
  const data = req.body as Buffer;
  if (data.length === 0) throw new AppError('INVALID_REQUEST', 'body is empty: send the document bytes');
  const wait = req.query.get('wait');
  if (wait !== null && wait !== 'true' && wait !== 'false') throw new AppError('INVALID_REQUEST', 'wait must be true or false');
  return {
    document: { source: { kind: 'inline' }, format: 'raw', contentType: 'raw' },
    data,
    title: req.query.get('title') || 'Untitled',
    source: req.query.get('source') || null,
    wait: wait !== 'false',
    options: {},
    idempotencyKey: req.query.get('idempotencyKey') || headerKey,
  };
}

function mergeLenient(body: PrintBody): unknown {
  const options: Record<string, unknown> = { ...body.options };
  if (body.copies !== undefined && options.copies === undefined) options.copies = body.copies;
  if (body.paperSize !== undefined && options.paperSize === undefined) options.paperSize = body.paperSize;
  return options;
}

function documentOf(body: PrintBody, roots: AllowedRoots): Pick<Submission, 'document' | 'data'> {
  const type = body.contentType ?? inferContentType(body.content);
  switch (type) {
    case 'pdf_url':
    case 'raw_url':
      return { document: { source: { kind: 'url', url: checkUrl(body.content) }, format: type === 'pdf_url' ? 'pdf' : 'raw', contentType: type }, data: null };
    case 'pdf_base64':
    case 'raw_base64':
    case 'zpl_base64':
      return { document: { source: { kind: 'inline' }, format: formatOf(type), contentType: type }, data: decodeBase64(body.content) };
    case 'zpl':
      return { document: { source: { kind: 'inline' }, format: 'zpl', contentType: type }, data: Buffer.from(body.content, 'utf8') };
    case 'url':
      return { document: { source: { kind: 'url', url: checkUrl(body.content) }, format: 'auto', contentType: 'url' }, data: null };
    case 'file':
      return { document: { source: { kind: 'file', path: allowedLocalPath(body.content, roots()) }, format: 'auto', contentType: 'file' }, data: null };
    case 'base64':
      return { document: { source: { kind: 'inline' }, format: 'auto', contentType: 'base64' }, data: decodeBase64(body.content) };
  }
  throw new AppError('INVALID_REQUEST', `contentType ${String(type)} is not supported`);
}

/** Seed 4.5 inference when `contentType` is absent; literal ZPL (starting `^` or `~`) is read as `zpl`. */
export function inferContentType(content: string): 'url' | 'file' | 'base64' | 'zpl' {
  if (content.startsWith('http')) return 'url';
  if (content.startsWith('/')) return 'file';
  if (/^\s*[\^~]/.test(content)) return 'zpl';
  return 'base64';
}

function formatOf(type: 'pdf_base64' | 'raw_base64' | 'zpl_base64'): DocumentSpec['format'] {
  return type === 'pdf_base64' ? 'pdf' : type === 'zpl_base64' ? 'zpl' : 'raw';
}

function checkUrl(content: string): string {
  try {
    const url = new URL(content);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString();
  } catch {
    // fall through
  }
  throw new AppError('INVALID_REQUEST', 'content must be an http or https URL for this contentType');
}

/** Strict base64 (standard or url-safe alphabet, whitespace ignored); throws 400 naming `content`. */
export function decodeBase64(text: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (compact.length === 0 || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact) || compact.length % 4 === 1) {
    throw new AppError('INVALID_REQUEST', 'content is not valid base64');
  }
  return Buffer.from(compact.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}
