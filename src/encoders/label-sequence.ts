// An encoder made of one function per page: each page's label bytes kept in order, framed and joined at the end.
import type { MonoBitmap } from './mono-bitmap';
import type { PageEncoder, PageEncoderFactory } from './page-encoder';

/**
 * The encoder whose pages become `labelsOf(page, copies)` (fresh bytes: the caller reuses the page) and whose document
 * is `frame` of every label so far, joined; without `frame` the labels as they are.
 */
export function labelSequenceEncoder(labelsOf: (page: MonoBitmap, copies: number) => Buffer[], frame: (labels: Buffer[]) => Buffer[] = (labels) => labels): PageEncoderFactory {
  return (copies: number): PageEncoder => {
    const labels: Buffer[] = [];
    return {
      addPage: (page) => void labels.push(...labelsOf(page, copies)),
      finish: () => new Uint8Array(Buffer.concat(frame(labels))),
    };
  };
}
