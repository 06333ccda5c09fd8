// Pages → ZPL labels: per page ^XA, label width and length in dots, the graphic at the origin, the copy count, ^XZ.
import type { MonoBitmap } from '../../encoders/mono-bitmap';
import type { PageEncoder } from '../../encoders/page-encoder';
import { graphicFieldZ64 } from './zpl-graphic-field';

/** zlib level for label graphics: measured on a 4x6 label, level 3 deflates in a third of level 6's time for ~20% more bytes. */
const LABEL_DEFLATE_LEVEL = 3;

/** `^XA^PW<w>^LL<h>^LH0,0^FO0,0^GFA…^FS^PQ<copies>^XZ\n` for a bitmap as wide and long as the label (dots); `deflateLevel` 0..9. */
function labelZpl(bitmap: MonoBitmap, copies: number, deflateLevel = LABEL_DEFLATE_LEVEL): string {
  return `^XA^PW${bitmap.width}^LL${bitmap.height}^LH0,0^FO0,0${graphicFieldZ64(bitmap, deflateLevel)}^FS^PQ${copies}^XZ\n`;
}

/** One label per page, each printed `copies` times by the printer (^PQ); the output is ASCII. */
export function zplLabelEncoder(copies: number): PageEncoder {
  const labels: string[] = [];
  return {
    addPage: (page) => void labels.push(labelZpl(page, copies)),
    finish: () => new TextEncoder().encode(labels.join('')),
  };
}
