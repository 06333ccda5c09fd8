// One label's ZPL: ^XA, label width and length in dots, the graphic at the origin, the copy count, ^XZ.
import { graphicFieldZ64, type MonoBitmap } from '../zpl/graphic-field';

/** `^XA^PW<w>^LL<h>^LH0,0^FO0,0^GFA…^FS^PQ<copies>^XZ` for a bitmap as wide and long as the label (dots). */
export function labelZpl(bitmap: MonoBitmap, copies: number, deflateLevel?: number): string {
  return `^XA^PW${bitmap.width}^LL${bitmap.height}^LH0,0^FO0,0${graphicFieldZ64(bitmap, deflateLevel)}^FS^PQ${copies}^XZ\n`;
}
