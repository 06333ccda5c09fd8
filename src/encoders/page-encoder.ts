// What an encoder is: pages of dots in, printer-language bytes out.
import type { MonoBitmap } from './mono-bitmap';

/** Collects a document's pages in order and writes them in one printer language. Single use. */
export interface PageEncoder {
  /** Encodes one page; `page` (its `data` included) may be reused by the caller once this returns. */
  addPage(page: MonoBitmap): void;
  /** The whole document in the printer's language, `copies` applied; call once, after the last page. */
  finish(): Uint8Array;
}

/** Starts an encoder for one document printed `copies` times (1..9999, checked by the caller). */
export type PageEncoderFactory = (copies: number) => PageEncoder;
