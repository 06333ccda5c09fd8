// Turns a POST /print body (JSON or octet-stream) into a submission: document, metadata, options (seed 2.4, 4.5).
import { Type, type Static } from '@sinclair/typebox';
import { AppError } from '../errors';
import type { ApiRequest } from './route';
import { parsePageRanges, PrintOptionsSchema, type PrintOptions } from '../schemas/print-options';
import { sniffFormat } from '../filters/document-format';
import { decodeBase64Bytes } from './base64-bytes';
import { compileValidator } from '../schemas/validate';
import type { DocumentSpec } from '../spooler/document';
import type { AllowedRoots, Submission } from '../spooler/submission';
import { allowedLocalPath } from '../spooler/local-files';

/** The seed's content types. */
export const ContentTypeSchema = Type.Union(
  ['pdf_url', 'pdf_base64', 'raw_url', 'raw_base64', 'zpl', 'zpl_base64', 'image_url', 'image_base64'].map((t) => Type.Literal(t)),
  { description: 'Seed content types plus image_url and image_base64 (PNG or JPEG, rendered for label and receipt printers).' },
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

/** Parses an authenticated print request; throws 400 ApiErrors naming the field. */
export function parsePrintRequest(req: ApiRequest, roots: AllowedRoots): Submission {
  const headerKey = req.headers['idempotency-key'] || null;
  if (req.bodyKind === 'raw') return rawSubmission(req, headerKey);
  if (req.bodyKind !== 'json') throw new AppError('INVALID_REQUEST', 'content is required');
  const body = req.body as PrintBody;
  const options = checkPageRange(validateOptions(mergeLenient(body), 'options'));
  return {
    ...documentOf(body, roots, req.largeField),
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
    // octet-stream bodies are recognised by their magic bytes: PDF, PNG and JPEG render, anything else passes raw
    document: { source: { kind: 'inline' }, format: 'auto', contentType: 'raw' },
    data,
    title: req.query.get('title') || 'Untitled',
    source: req.query.get('source') || null,
    wait: wait !== 'false',
    options: {},
    idempotencyKey: req.query.get('idempotencyKey') || headerKey,
  };
}

/** A page range whose every part runs forwards (`5-3` is a 400, not a failed render). */
function checkPageRange(options: PrintOptions): PrintOptions {
  if (options.pageRange === undefined) return options;
  const backwards = parsePageRanges(options.pageRange).find(([a, b]) => a < 1 || b < a);
  if (backwards) throw new AppError('INVALID_REQUEST', `options.pageRange "${options.pageRange}" is not valid: ${backwards[0]}-${backwards[1]} ${backwards[0] < 1 ? 'starts before page 1' : 'runs backwards'}`);
  return options;
}

function mergeLenient(body: PrintBody): unknown {
  const options: Record<string, unknown> = { ...body.options };
  if (body.copies !== undefined && options.copies === undefined) options.copies = body.copies;
  if (body.paperSize !== undefined && options.paperSize === undefined) options.paperSize = body.paperSize;
  return options;
}

function documentOf(body: PrintBody, roots: AllowedRoots, large: Buffer | null): Pick<Submission, 'document' | 'data'> {
  const type = body.contentType ?? inferContentType(body.content);
  const content = new ContentField(body.content, large, type);
  switch (type) {
    case 'pdf_url':
    case 'raw_url':
    case 'image_url':
      return { document: { source: { kind: 'url', url: checkUrl(content.text()) }, format: URL_FORMATS[type], contentType: type }, data: null };
    case 'image_base64':
      return { document: { source: { kind: 'inline' }, format: 'image', contentType: type }, data: imageBytes(content.base64()) };
    case 'pdf_base64':
    case 'raw_base64':
    case 'zpl_base64':
      return { document: { source: { kind: 'inline' }, format: formatOf(type), contentType: type }, data: content.base64() };
    case 'zpl':
      return { document: { source: { kind: 'inline' }, format: 'zpl', contentType: type }, data: content.bytes() };
    case 'url':
      return { document: { source: { kind: 'url', url: checkUrl(content.text()) }, format: 'auto', contentType: 'url' }, data: null };
    case 'file':
      return { document: { source: { kind: 'file', path: allowedLocalPath(content.text(), roots()) }, format: 'auto', contentType: 'file' }, data: null };
    case 'base64':
      return { document: { source: { kind: 'inline' }, format: 'auto', contentType: 'base64' }, data: content.base64() };
  }
  throw new AppError('INVALID_REQUEST', `contentType ${String(type)} is not supported`);
}

/** The `content` member: a string, or for a large body its raw bytes (the string then holds only its start). */
class ContentField {
  constructor(private readonly string: string, private readonly large: Buffer | null, private readonly type: string) {}

  /** The whole text, for URLs and paths; a large one is refused. */
  text(): string {
    if (this.large) throw new AppError('INVALID_REQUEST', `content is too long for contentType ${this.type}`);
    return this.string;
  }

  /** The decoded bytes of base64 content; throws 400 naming `content`. */
  base64(): Buffer {
    if (!this.large) return decodeBase64(this.string);
    const bytes = decodeBase64Bytes(this.large);
    if (!bytes) throw invalidBase64();
    return bytes;
  }

  /** The UTF-8 bytes of literal content (ZPL). */
  bytes(): Buffer {
    return this.large ?? Buffer.from(this.string, 'utf8');
  }
}

const URL_FORMATS = { pdf_url: 'pdf', raw_url: 'raw', image_url: 'image' } as const;

/** Inline image bytes, which must be PNG or JPEG; throws 400 naming `content`. */
function imageBytes(bytes: Buffer): Buffer {
  const format = sniffFormat(bytes);
  if (format !== 'png' && format !== 'jpeg') throw new AppError('INVALID_REQUEST', 'content is not a PNG or JPEG image');
  return bytes;
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

/** Strict base64 (standard or url-safe alphabet, whitespace ignored); throws 400 naming `content`. Copies the text no more than once, into the bytes. */
export function decodeBase64(text: string): Buffer {
  // one pass, no copy of a text that may be tens of MiB: only base64 characters, whitespace, and up to two '=' at the end
  if (!/^[A-Za-z0-9+/_\-\s]*(?:=\s*){0,2}$/.test(text)) throw invalidBase64();
  let letters = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09 && c !== 0x0c && c !== 0x0b) letters += 1;
  }
  if (letters === 0 || letters % 4 === 1) throw invalidBase64();
  // Node's decoder takes both alphabets and skips whitespace
  return Buffer.from(text, 'base64');
}

function invalidBase64(): AppError {
  return new AppError('INVALID_REQUEST', 'content is not valid base64');
}
