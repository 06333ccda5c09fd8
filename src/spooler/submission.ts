// A validated print submission, as the HTTP layer hands it to the spooler.
import type { PrintOptions } from '../schemas/print-options';
import type { DocumentSpec } from './document';

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
