// A one-page A4 PDF test page written by hand: device, printer, date, colour patches and duplex marks.

/** What the test page shows. */
export interface TestPageInfo {
  deviceId: string;
  printerPath: string;
  printedAt: Date;
}

/** The PDF bytes of the test page (PDF 1.4, Helvetica, no external resources). */
export function buildTestPagePdf(info: TestPageInfo): Buffer {
  const text = (x: number, y: number, size: number, value: string) => `BT /F1 ${size} Tf ${x} ${y} Td (${pdfString(value)}) Tj ET`;
  const patch = (x: number, rgb: string, label: string) => `${rgb} rg ${x} 520 80 80 re f 0 0 0 rg ${text(x, 505, 10, label)}`;
  const content = [
    text(60, 770, 28, 'printproxyd test page'),
    text(60, 730, 14, `Device: printproxy-${info.deviceId}`),
    text(60, 710, 14, `Printer: ${info.printerPath}`),
    text(60, 690, 14, `Printed: ${info.printedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`),
    text(60, 640, 12, 'Colour patches (grey on monochrome printers):'),
    patch(60, '0 1 1', 'cyan'),
    patch(160, '1 0 1', 'magenta'),
    patch(260, '1 1 0', 'yellow'),
    patch(360, '0 0 0', 'black'),
    text(60, 440, 12, 'Duplex mark: this is the front side. On a two-sided print the arrow on the back'),
    text(60, 424, 12, 'should stand behind this one: long edge keeps it upright, short edge turns it over.'),
    '0 0 0 RG 2 w 300 300 m 300 380 l S 285 365 m 300 380 l 315 365 l S',
    '0 0 0 RG 1 w 20 20 555 802 re S',
  ].join('\n');
  return assemble(content);
}

function assemble(content: string): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

function pdfString(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '?').replace(/([()\\])/g, '\\$1');
}
