// The TSPL test label: 4x6 in at 203 dpi, device and printer identity, a Code 128 barcode, a QR code and a ruler.
import type { TestPrintInfo as TestLabelInfo } from '../printer-language';

const WIDTH = 812;
const LENGTH = 1218;
const DOTS_PER_INCH = 203;

/** Text safe inside a TSPL "…" parameter: double quotes become single ones, line breaks and controls spaces. */
export function tsplQuoted(value: string): string {
  return `"${value.replace(/"/g, "'").replace(/[\x00-\x1f\x7f]/g, ' ')}"`;
}

/** TEXT x,y in font "4" (24 x 32 dots) scaled `mul` times, unrotated. */
function text(y: number, mul: number, value: string): string {
  return `TEXT 40,${y},"4",0,${mul},${mul},${tsplQuoted(value)}`;
}

/** A line 4 inches long with a tick every 1/4 inch (taller each inch), labelled in inches. */
function ruler(y: number): string[] {
  const out = [`BAR 40,${y},${4 * DOTS_PER_INCH},3`];
  for (let quarter = 0; quarter <= 16; quarter += 1) {
    const x = 40 + Math.round((quarter * DOTS_PER_INCH) / 4);
    const whole = quarter % 4 === 0;
    out.push(`BAR ${x},${y},3,${whole ? 60 : 30}`);
    if (whole) out.push(`TEXT ${x + 6},${y + 66},"3",0,1,1,"${quarter / 4} in"`);
  }
  return out;
}

/** One whole TSPL label (SIZE … PRINT 1), CRLF-ended lines; clipped on smaller media, which shows the media size at a glance. */
export function buildTsplTestLabel(info: TestLabelInfo): string {
  const lines = [
    'SIZE 4,6',
    'GAP 3 mm,0 mm',
    'DIRECTION 1',
    'CLS',
    `BOX 0,0,${WIDTH - 1},${LENGTH - 1},4`,
    text(40, 2, 'printproxyd test label'),
    text(120, 1, `Device: printproxy-${info.deviceId}`),
    text(165, 1, `Printer: ${info.printerPath}`),
    text(210, 1, `Printed: ${info.printedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`),
    `BARCODE 40,280,"128",160,1,0,3,3,${tsplQuoted(info.printerPath)}`,
    text(520, 1, '4x6 in at 203 dpi; a ruler below, ticks every 1/4 in'),
    ...ruler(620),
    `QRCODE 40,760,M,6,A,0,${tsplQuoted(`printproxy-${info.deviceId} ${info.printerPath}`)}`,
    'PRINT 1',
  ];
  return `${lines.join('\r\n')}\r\n`;
}
