// PWG Raster and URF decoders against files made by CUPS's own filters from the shipping-label test PDF: the labels
// they render to carry the same barcodes, readable, at the printer's 203 dpi.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePwgPages } from '../../src/render/pwg-raster-decode';
import { decodeUrfPages } from '../../src/render/urf-decode';
import type { RasterFormat } from '../../src/render/render-job';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { cupsRaster, RASTER_TYPES, type RasterType } from '../fixtures/raster/cups-raster';
import { readLabelBarcodes } from './barcode-reader';
import { renderLocal } from './pdfium-fixture';
import { decodeLabels } from './zpl-label-decode';

const TRACKING = '1Z999AA10123456784';
const QR = 'https://example.com/t/1Z999AA10123456784';

async function labelsOf(format: RasterFormat, bytes: Uint8Array, pageRange?: string) {
  const report = await renderLocal({ format, bytes, raster: { dpi: 203, pageRange }, encode: { language: 'zpl', copies: 1 } });
  return decodeLabels(new TextDecoder().decode(report.bytes));
}

const cases: Array<{ format: RasterFormat; mime: 'image/pwg-raster' | 'image/urf'; type: RasterType }> = [
  { format: 'pwg', mime: 'image/pwg-raster', type: 'sgray8' },
  { format: 'pwg', mime: 'image/pwg-raster', type: 'black1' },
  { format: 'pwg', mime: 'image/pwg-raster', type: 'srgb8' },
  { format: 'urf', mime: 'image/urf', type: 'sgray8' },
  { format: 'urf', mime: 'image/urf', type: 'srgb8' },
];

for (const c of cases) {
  test(`${c.mime} ${c.type} from cupsfilter: one 4x6 label at 203 dpi whose Code 128 and QR read back`, async () => {
    const raster = await cupsRaster(await shippingLabelPdf(), c.mime, c.type);
    const decode = c.format === 'pwg' ? decodePwgPages : decodeUrfPages;
    const pages = [...decode(raster, () => true)];
    assert.ok(pages.length >= 1, 'at least one page');
    const dpi = RASTER_TYPES[c.type].dpi;
    assert.deepEqual(pages[0]?.dpi, { x: dpi, y: dpi });
    assert.deepEqual([pages[0]?.width, pages[0]?.height], [Math.round(4 * dpi), Math.round(6 * dpi)]);
    const [label] = await labelsOf(c.format, raster, '1');
    assert.deepEqual([label.pw, label.ll], [812, 1218]);
    const found = (await readLabelBarcodes(label.bitmap, label.pw)).filter((r) => r.isValid).map((r) => [r.format, r.text]);
    assert.deepEqual(found.sort(), [['Code128', TRACKING], ['QRCode', QR]].sort());
  });
}

test('a 1-bit URF (not in the published URF layout, which has 8 bits per colour and more) is refused with a clear error', async () => {
  const raster = await cupsRaster(await shippingLabelPdf(), 'image/urf', 'black1');
  await assert.rejects(labelsOf('urf', raster), (err: Error & { code?: string }) => err.code === 'RENDER_FAILED' && /URF could not be decoded: 1 bits per pixel/.test(err.message));
});

test('a truncated PWG raster fails with RENDER_FAILED naming where it ends, not a crash', async () => {
  const raster = await cupsRaster(await shippingLabelPdf(), 'image/pwg-raster');
  await assert.rejects(labelsOf('pwg', raster.subarray(0, 4 + 1796 + 500)), (err: Error & { code?: string }) => err.code === 'RENDER_FAILED' && /PWG raster could not be decoded: .*(ends|early)/.test(err.message));
});
