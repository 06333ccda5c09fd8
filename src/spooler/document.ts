// What a job prints: where its bytes come from and what format they are in.

/** Where the bytes are: inline (decoded at submission), a URL fetched at delivery, or an allowed local file. */
export type DocumentSource = { kind: 'inline' } | { kind: 'url'; url: string } | { kind: 'file'; path: string };

/** The document format: `auto` is sniffed at delivery (`%PDF-` means PDF, otherwise raw); `jpeg` only for test pages. */
export type DocumentFormat = 'pdf' | 'zpl' | 'raw' | 'jpeg' | 'auto';

/** A job's document, without its inline bytes (those travel separately). */
export interface DocumentSpec {
  source: DocumentSource;
  format: DocumentFormat;
  /** The seed `contentType` as submitted, or what inference chose (`raw` for octet-stream bodies). */
  contentType: string;
}

/** The format of loaded bytes: an explicit format as is; `auto` becomes pdf for `%PDF-`, else raw. */
export function resolveFormat(format: DocumentFormat, bytes: Uint8Array): Exclude<DocumentFormat, 'auto'> {
  if (format !== 'auto') return format;
  return isPdf(bytes) ? 'pdf' : 'raw';
}

/** True when the bytes start like a PDF file. */
export function isPdf(bytes: Uint8Array): boolean {
  return bytes.length >= 5 && bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46 && bytes[4] === 0x2d;
}
