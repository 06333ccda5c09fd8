// The filter's choice for label printers: render options from the job and the printer's own settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelRenderOptions, prepareForPrinter, type PdfToZpl } from '../../src/filters/filters';
import type { LabelRenderOptions } from '../../src/render/render-options';

test('labelRenderOptions: the printer dpi, dither from the job else the printer, label options from the job', () => {
  assert.deepEqual(labelRenderOptions({ copies: 2, paperSize: '4x6', duplex: 'long-edge' }, { dpi: 300, dither: true }), {
    paperSize: '4x6', pageRange: undefined, orientation: undefined, fitToPage: undefined, copies: 2, dpi: 300, dither: true,
  });
  assert.equal(labelRenderOptions({ dither: false }, { dither: true }).dither, false, 'the job wins');
  assert.equal(labelRenderOptions({ dither: true }, {}).dither, true);
  assert.equal(labelRenderOptions({}, {}).dpi, undefined, 'unknown: the renderer default (203)');
});

test('a PDF for a ZPL printer reaches pdfToZpl with those options; other printers ignore dither and dpi', async () => {
  const seen: LabelRenderOptions[] = [];
  const pdfToZpl: PdfToZpl = async (_pdf, options) => {
    seen.push(options);
    return new TextEncoder().encode('^XA^XZ');
  };
  const input = { bytes: new Uint8Array([1]), format: 'pdf' as const, label: { dpi: 600, dither: true }, title: 't', userName: 'u', options: { dither: false } };
  const signal = new AbortController().signal;
  await prepareForPrinter({ ...input, printerContent: 'zpl' }, pdfToZpl, signal);
  assert.deepEqual([seen[0].dpi, seen[0].dither], [600, false]);
  const ipp = await prepareForPrinter({ ...input, printerContent: 'pdf' }, pdfToZpl, signal);
  assert.equal(ipp.mimeType, 'application/pdf');
  assert.equal(seen.length, 1);
});
