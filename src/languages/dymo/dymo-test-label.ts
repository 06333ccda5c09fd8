// The DYMO test label: a bitmap drawn here (a border, quarter-inch ticks, bars spelling the device id's bits), encoded as LabelWriter raster.
import type { MonoBitmap } from '../../encoders/mono-bitmap';
import { parseMediaSize } from '../../util/media-size';
import type { PrinterRecord } from '../../schemas/printer';
import type { TestPrintInfo } from '../printer-language';
import { DYMO_DPI } from './dymo-commands';
import { dymoEncoderFor, dymoFamilyOf } from './dymo-family';
import { dymoMedia } from './dymo-media';

const BORDER = 4;
const QUARTER_INCH = DYMO_DPI / 4;

/** A blank page of `width` x `height` dots. */
function blankPage(width: number, height: number): MonoBitmap {
  const bytesPerRow = Math.ceil(width / 8);
  return { width, height, bytesPerRow, data: new Uint8Array(bytesPerRow * height) };
}

/** Blackens the rectangle x0..x1 (exclusive) by y0..y1 (exclusive), clipped to the page. */
export function fillRect(page: MonoBitmap, x0: number, y0: number, x1: number, y1: number): void {
  for (let y = Math.max(0, y0); y < Math.min(page.height, y1); y += 1) {
    for (let x = Math.max(0, x0); x < Math.min(page.width, x1); x += 1) page.data[y * page.bytesPerRow + (x >> 3)] |= 0x80 >> (x & 7);
  }
}

/** The default label of `printer` in dots at 300 dpi (width across the head). */
export function testLabelSize(printer: Pick<PrinterRecord, 'model'>): { width: number; height: number } {
  const size = parseMediaSize(dymoMedia(printer)[0]);
  const dots = (pt: number) => Math.floor((pt / 72) * DYMO_DPI);
  return size ? { width: dots(size.widthPt), height: dots(size.heightPt) } : { width: 337, height: 1050 };
}

/** Bars for the bits of `text` (a wide bar a 1, a narrow one a 0), downwards from `top`, at most to `bottom`. */
function bitBars(page: MonoBitmap, text: string, top: number, bottom: number): void {
  let y = top;
  for (const byte of Buffer.from(text, 'latin1')) {
    for (let bit = 7; bit >= 0 && y < bottom; bit -= 1) {
      const thick = (byte >> bit) & 1 ? 6 : 2;
      fillRect(page, BORDER * 4, y, page.width - BORDER * 4, y + thick);
      y += thick + 4;
    }
  }
}

/** The test label's picture for `printer`: border, a tick every 1/4 in along the left edge, the device id in bars. */
export function drawDymoTestLabel(printer: Pick<PrinterRecord, 'model'>, info: TestPrintInfo): MonoBitmap {
  const { width, height } = testLabelSize(printer);
  const page = blankPage(width, height);
  fillRect(page, 0, 0, width, BORDER);
  fillRect(page, 0, height - BORDER, width, height);
  fillRect(page, 0, 0, BORDER, height);
  fillRect(page, width - BORDER, 0, width, height);
  for (let y = QUARTER_INCH; y < height; y += QUARTER_INCH) fillRect(page, BORDER, y - 1, y % DYMO_DPI === 0 ? 40 : 24, y + 2);
  bitBars(page, `printproxy-${info.deviceId}`, QUARTER_INCH, height - QUARTER_INCH);
  return page;
}

/** The test label in `printer`'s protocol (450 raster or the 550 series' job): one label at 300 dpi. */
export function buildDymoTestLabel(printer: Pick<PrinterRecord, 'model'>, info: TestPrintInfo): Buffer {
  const encoder = dymoEncoderFor(dymoFamilyOf(printer), DYMO_DPI)(1);
  encoder.addPage(drawDymoTestLabel(printer, info));
  return Buffer.from(encoder.finish());
}
