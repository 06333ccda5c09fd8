// Print quality: generated labels (Code 128, QR, DataMatrix; vectors and images; 4x6, 2x1, 4x3 in) rendered to ZPL,
// decoded back to dots, and every barcode read by zxing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { barcodePagesPdf, type BarcodeSpec, type Symbology } from '../fixtures/pdf/barcode-pdf';
import { readLabelBarcodes } from './barcode-reader';
import { pdfToZplText } from './pdfium-fixture';
import { decodeLabels } from './zpl-label-decode';

const FORMAT: Record<Symbology, string> = { code128: 'Code128', qrcode: 'QRCode', datamatrix: 'DataMatrix' };

function specsFor(size: string, linear: string, modulePt: number): BarcodeSpec[] {
  const specs: BarcodeSpec[] = [];
  for (const mode of ['vector', 'image'] as const) {
    specs.push({ symbology: 'code128', text: `${linear}${mode === 'vector' ? 1 : 2}`, mode, modulePt: modulePt / 2, barHeightPt: 40 });
    specs.push({ symbology: 'qrcode', text: `PP ${size} QR ${mode}`, mode, modulePt });
    specs.push({ symbology: 'datamatrix', text: `PP ${size} DM ${mode}`, mode, modulePt });
  }
  return specs;
}

const cases = [
  { name: '4x6', w: 4, h: 6, dots: [812, 1218], specs: specsFor('4x6', '1Z999AA1012345678', 3) },
  { name: '4x3', w: 4, h: 3, dots: [812, 609], specs: specsFor('4x3', 'SHIP-4x3-00', 2.5) },
  { name: '2x1', w: 2, h: 1, dots: [406, 203], specs: specsFor('2x1', '1234567', 2) },
];

for (const c of cases) {
  test(`${c.name} in labels: each page's barcode reads back from the ^GFA dots`, async () => {
    const pdf = await barcodePagesPdf(c.w, c.h, c.specs);
    const labels = decodeLabels(await pdfToZplText(pdf));
    assert.equal(labels.length, c.specs.length);
    for (const [i, label] of labels.entries()) {
      assert.deepEqual([label.pw, label.ll], c.dots);
      const found = await readLabelBarcodes(label.bitmap, label.pw);
      const spec = c.specs[i];
      assert.deepEqual(
        found.filter((r) => r.isValid).map((r) => [r.format, r.text]),
        [[FORMAT[spec.symbology], spec.text]],
        `${c.name} page ${i + 1}: ${spec.symbology} ${spec.mode}`,
      );
    }
  });
}
