// The filter table: what each (document format, printer language) pair becomes, and the render request it makes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFilters, renderJob, type FilterInput, type Render } from '../../src/filters/filters';
import type { RenderJob } from '../../src/render/render-job';

const signal = new AbortController().signal;

function recorder(): { render: Render; seen: RenderJob[] } {
  const seen: RenderJob[] = [];
  const render: Render = async (job) => {
    seen.push(job);
    return { bytes: new TextEncoder().encode(job.encode.language), pages: 1, documentPages: 1, widthDots: 8, heightDots: 8 };
  };
  return { render, seen };
}

const base: Omit<FilterInput, 'format' | 'language'> = { bytes: new Uint8Array([1, 2]), printer: { dpi: 300, dither: true }, title: 't', userName: 'u', options: { copies: 2, dither: false } };

test('a label request: the printer dpi, dither from the job else the printer, label options and copies from the job', () => {
  const job = renderJob({ ...base, format: 'pdf', language: 'zpl', options: { copies: 2, paperSize: '4x6', duplex: 'long-edge' } }, 'pdf', 'zpl');
  assert.deepEqual(job.raster, { dpi: 300, pageRange: undefined, orientation: undefined, fitToPage: undefined, dither: true, paperSize: '4x6' });
  assert.deepEqual(job.encode, { language: 'zpl', copies: 2 });
  assert.equal(renderJob({ ...base, format: 'pdf', language: 'zpl', options: { dither: false } }, 'pdf', 'zpl').raster.dither, false, 'the job wins');
  assert.equal(renderJob({ ...base, format: 'pdf', language: 'zpl', printer: {}, options: {} }, 'pdf', 'zpl').raster.dpi, 203, 'unknown: 203 dpi');
});

test('a receipt request is 72 mm wide on 80 mm paper (576 dots at 203 dpi) and 48 mm on 58 mm paper', () => {
  const wide = renderJob({ ...base, format: 'png', language: 'escpos', printer: {} }, 'png', 'escpos');
  assert.equal(wide.raster.widthDots, 576);
  assert.equal(wide.raster.paperSize, undefined);
  assert.equal(renderJob({ ...base, format: 'png', language: 'escpos', printer: { paperWidth: 58 } }, 'png', 'escpos').raster.widthDots, 384);
});

test('PDFs and images render for label and receipt printers; ZPL and raw bytes pass; documents go to IPP with their type', async () => {
  const { render, seen } = recorder();
  const prepare = createFilters(render);
  const zpl = await prepare({ ...base, format: 'zpl', language: 'zpl' }, signal);
  assert.deepEqual([zpl.bytes, zpl.repeat], [base.bytes, 2], 'ZPL passes unmodified, sent once per copy');
  const label = await prepare({ ...base, format: 'png', language: 'zpl' }, signal);
  assert.deepEqual([Buffer.from(label.bytes).toString(), label.repeat], ['zpl', 1], 'rendered labels carry ^PQ themselves');
  const receipt = await prepare({ ...base, format: 'pdf', language: 'escpos' }, signal);
  assert.equal(Buffer.from(receipt.bytes).toString(), 'escpos');
  const raw = await prepare({ ...base, format: 'raw', language: 'escpos' }, signal);
  assert.deepEqual([raw.bytes, raw.repeat, raw.options], [base.bytes, 1, {}], 'raw bytes pass untouched and ignore options');
  const ipp = await prepare({ ...base, format: 'jpeg', language: 'document' }, signal);
  assert.deepEqual([ipp.mimeType, ipp.bytes, ipp.options], ['image/jpeg', base.bytes, base.options]);
  assert.deepEqual(seen.map((j) => `${j.format}>${j.encode.language}`), ['png>zpl', 'pdf>escpos']);
});

test('without a renderer, a document that needs one fails with UNSUPPORTED_CONTENT', async () => {
  await assert.rejects(createFilters(null)({ ...base, format: 'pdf', language: 'zpl' }, signal), { code: 'UNSUPPORTED_CONTENT' });
});
