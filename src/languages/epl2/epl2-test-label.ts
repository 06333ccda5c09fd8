// The EPL2 test label: 4x6 in at 203 dpi, device and printer identity, a Code 128 barcode (B) and a ruler.
import type { TestPrintInfo } from '../printer-language';

const WIDTH = 812;
const LENGTH = 1218;
const GAP = 24;
const DOTS_PER_INCH = 203;

/** Text safe inside an EPL2 "…" field: backslash and quote escaped by a backslash, line breaks and controls spaces. */
export function epl2Quoted(value: string): string {
  return `"${value.replace(/[\x00-\x1f\x7f]/g, ' ').replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/** A, text at (40, y) in font 4 (the 14 x 24 dot font) scaled `mul` times, unrotated, not reversed. */
function text(y: number, mul: number, value: string): string {
  return `A40,${y},0,4,${mul},${mul},N,${epl2Quoted(value)}`;
}

/** A line 4 inches long with a tick every 1/4 inch (taller each inch), labelled in inches; LO draws black lines. */
function ruler(y: number): string[] {
  const out = [`LO40,${y},${4 * DOTS_PER_INCH},3`];
  for (let quarter = 0; quarter <= 16; quarter += 1) {
    const x = 40 + Math.round((quarter * DOTS_PER_INCH) / 4);
    const whole = quarter % 4 === 0;
    out.push(`LO${x},${y},3,${whole ? 60 : 30}`);
    if (whole) out.push(`A${x + 6},${y + 66},0,3,1,1,N,"${quarter / 4} in"`);
  }
  return out;
}

/** One whole EPL2 label (line feed, N … P1), CRLF-ended lines; clipped on smaller media, which shows the media size at a glance. */
export function buildEpl2TestLabel(info: TestPrintInfo): string {
  const lines = [
    '',
    'N',
    `q${WIDTH}`,
    `Q${LENGTH},${GAP}`,
    `X0,0,4,${WIDTH - 1},${LENGTH - 1}`,
    text(40, 2, 'printproxyd test label'),
    text(120, 1, `Device: printproxy-${info.deviceId}`),
    text(165, 1, `Printer: ${info.printerPath}`),
    text(210, 1, `Printed: ${info.printedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`),
    // Code 128 with automatic subsets, 3-dot narrow bars, 160 dots tall, human-readable line below
    `B40,280,0,1,3,6,160,B,${epl2Quoted(info.printerPath)}`,
    text(520, 1, '4x6 in at 203 dpi; a ruler below, ticks every 1/4 in'),
    ...ruler(620),
    'P1',
  ];
  return `${lines.join('\r\n')}\r\n`;
}
