// What a job prints: where its bytes come from and what format they are declared in.
import type { DeclaredFormat } from '../filters/document-format';

/** Where the bytes are: inline (decoded at submission), a URL fetched at delivery, or an allowed local file. */
export type DocumentSource = { kind: 'inline' } | { kind: 'url'; url: string } | { kind: 'file'; path: string };

/** A job's document, without its inline bytes (those travel separately). */
export interface DocumentSpec {
  source: DocumentSource;
  /** `auto` is recognised from the bytes at delivery (see filters/document-format.ts). */
  format: DeclaredFormat;
  /** The seed `contentType` as submitted, or what inference chose (`raw` for octet-stream bodies). */
  contentType: string;
}
