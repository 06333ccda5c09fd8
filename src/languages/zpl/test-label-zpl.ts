// The ZPL test label: 4x6 in at 203 dpi (812 x 1218 dots), device and printer identity, a Code 128 barcode, a ruler.

/** What the test label shows. */
export interface TestLabelInfo {
  deviceId: string;
  printerPath: string;
  printedAt: Date;
}

const WIDTH = 812;
const LENGTH = 1218;
const DOTS_PER_INCH = 203;

/** One ^XA…^XZ label; prints clipped on smaller media, which shows the media size at a glance. */
export function buildTestLabel(info: TestLabelInfo): string {
  const text = (y: number, size: number, value: string) => `^FO40,${y}^A0N,${size},${size}^FD${fieldSafe(value)}^FS`;
  return [
    '^XA',
    '^CI28',
    `^PW${WIDTH}`,
    `^LL${LENGTH}`,
    '^LH0,0',
    `^FO0,0^GB${WIDTH},${LENGTH},4^FS`,
    text(40, 56, 'printproxyd test label'),
    text(120, 32, `Device: printproxy-${info.deviceId}`),
    text(165, 32, `Printer: ${info.printerPath}`),
    text(210, 32, `Printed: ${info.printedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`),
    `^FO40,280^BY3^BCN,160,Y,N,N^FD${fieldSafe(info.printerPath)}^FS`,
    text(520, 28, '4x6 in at 203 dpi; a ruler below, ticks every 1/4 in'),
    ...ruler(620),
    '^XZ',
  ].join('\n');
}

function ruler(y: number): string[] {
  const out = [`^FO40,${y}^GB${4 * DOTS_PER_INCH},3,3^FS`];
  for (let quarter = 0; quarter <= 16; quarter += 1) {
    const x = 40 + Math.round((quarter * DOTS_PER_INCH) / 4);
    const whole = quarter % 4 === 0;
    out.push(`^FO${x},${y}^GB3,${whole ? 60 : 30},3^FS`);
    if (whole) out.push(`^FO${x + 6},${y + 66}^A0N,28,28^FD${quarter / 4} in^FS`);
  }
  return out;
}

/** Removes the ZPL command prefixes from field data. */
function fieldSafe(value: string): string {
  return value.replace(/[\^~]/g, ' ');
}
