// Label geometry end to end: page size → ^PW/^LL with clamping, paperSize, orientation, fitToPage, pageRange, copies, dpi.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boxedPagePdf, manyPagesPdf } from '../fixtures/pdf/hostile-pdf';
import { pdfToZplText, type LabelOpts } from './pdfium-fixture';
import { countBlack, decodeLabels, dotAt, type DecodedLabel } from './zpl-label-decode';

async function render(pdf: Uint8Array, opts: LabelOpts = {}): Promise<DecodedLabel[]> {
  return decodeLabels(await pdfToZplText(pdf, opts));
}

async function size(pdf: Uint8Array, opts: LabelOpts = {}): Promise<[number, number]> {
  const [label] = await render(pdf, opts);
  return [label.pw, label.ll];
}

test('the first page selects ^PW/^LL at 203 dpi, clamped to 36-576 pt wide and 36-3600 pt long', async () => {
  assert.deepEqual(await size(boxedPagePdf(288, 432)), [812, 1218]);
  assert.deepEqual(await size(boxedPagePdf(144, 72)), [406, 203]);
  assert.deepEqual(await size(boxedPagePdf(10, 20)), [102, 102]);
  assert.deepEqual(await size(boxedPagePdf(1000, 5000)), [1624, 10150]);
  assert.deepEqual(await size(boxedPagePdf(612, 30)), [1624, 102]);
});

test('the printer dpi scales the label', async () => {
  assert.deepEqual(await size(boxedPagePdf(288, 432), { dpi: 300 }), [1200, 1800]);
  assert.deepEqual(await size(boxedPagePdf(288, 432), { dpi: 600 }), [2400, 3600]);
});

test('paperSize forces the label size; unknown names fall back to the page', async () => {
  const page = boxedPagePdf(144, 72);
  assert.deepEqual(await size(boxedPagePdf(144, 216), { paperSize: 'na_index-4x6_4x6in' }), [812, 1218]);
  assert.deepEqual(await size(boxedPagePdf(144, 216), { paperSize: '100x150mm' }), [799, 1199]);
  assert.deepEqual(await size(page, { paperSize: '2x1' }), [406, 203]);
  assert.deepEqual(await size(page, { paperSize: '4x6in' }), [812, 1218], 'a landscape page on portrait media is turned');
  assert.deepEqual(await size(page, { paperSize: '10x12in' }), [1624, 2436], 'forced sizes are clamped too');
  assert.deepEqual(await size(page, { paperSize: 'letter-ish' }), [406, 203]);
});

test('1:1 placement keeps the page at the top-left corner; content beyond the label is clipped', async () => {
  const [label] = await render(boxedPagePdf(288, 144));
  assert.ok(dotAt(label.bitmap, 5, 5) && dotAt(label.bitmap, 807, 401), 'boxes at top-left and bottom-right');
  assert.ok(!dotAt(label.bitmap, 250, 5) && !dotAt(label.bitmap, 5, 250));
  const [clipped] = await render(boxedPagePdf(288, 144), { paperSize: '2x2' });
  assert.equal(countBlack(clipped.bitmap), 203 * 203, 'only the top-left box fits on a 2x2 label');
});

/** Which corners of the label are black: top-left, top-right, bottom-left, bottom-right. */
function corners(label: DecodedLabel): boolean[] {
  const [w, h] = [label.pw - 5, label.ll - 5];
  return [dotAt(label.bitmap, 5, 5), dotAt(label.bitmap, w, 5), dotAt(label.bitmap, 5, h), dotAt(label.bitmap, w, h)];
}

test('orientation: landscape turns the page 90 degrees counter-clockwise, reverse-landscape clockwise', async () => {
  const page = boxedPagePdf(288, 144, true);
  const [portrait] = await render(page, { orientation: 'portrait' });
  assert.deepEqual([portrait.pw, portrait.ll, ...corners(portrait)], [812, 406, true, false, false, false]);
  const [ccw] = await render(page, { orientation: 'landscape' });
  assert.deepEqual([ccw.pw, ccw.ll, ...corners(ccw)], [406, 812, false, false, true, false]);
  const [cw] = await render(page, { orientation: 'reverse-landscape' });
  assert.deepEqual([cw.pw, cw.ll, ...corners(cw)], [406, 812, false, true, false, false]);
  const [flipped] = await render(page, { orientation: 'reverse-portrait' });
  assert.deepEqual([flipped.pw, flipped.ll, ...corners(flipped)], [812, 406, false, false, false, true]);
});

test('fitToPage scales a large page down to the label, centred, in whole dots', async () => {
  const [fit] = await render(boxedPagePdf(576, 576), { paperSize: '2x2', fitToPage: true });
  assert.deepEqual([fit.pw, fit.ll], [406, 406]);
  const black = countBlack(fit.bitmap);
  assert.ok(black >= 2 * 48 * 48 && black <= 2 * 54 * 54, `two boxes scaled by 1/4 (51 dots a side), got ${black} dots`);
  assert.ok(dotAt(fit.bitmap, 2, 2) && dotAt(fit.bitmap, 403, 403) && !dotAt(fit.bitmap, 203, 203));
});

test('pageRange picks pages in the order given; copies become ^PQ on every label', async () => {
  const labels = await render(manyPagesPdf(5), { pageRange: '4-5,2', copies: 7 });
  assert.equal(labels.length, 3);
  assert.deepEqual(labels.map((l) => l.pq), [7, 7, 7]);
  assert.equal((await render(manyPagesPdf(3))).length, 3);
});

test('maxPages limits one job', async () => {
  await assert.rejects(render(manyPagesPdf(5), { maxPages: 4 }), /page count 5 exceeds limit 4/);
  await assert.rejects(render(manyPagesPdf(50), { pageRange: '1-10,20-30', maxPages: 12 }), /page count 21 exceeds limit 12/);
});

test('dither renders a plain black box the same as the threshold does', async () => {
  const [plain] = await render(boxedPagePdf(144, 144));
  const [dithered] = await render(boxedPagePdf(144, 144), { dither: true });
  assert.deepEqual(dithered.bitmap.data, plain.bitmap.data);
});
