// The filter's choice for label printers: render options from the job and the printer's own settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { labelRenderOptions, prepareForPrinter, type PdfToZpl } from '../../src/spooler/filter';
import type { RenderJob } from '../../src/render/render-job';

test('labelRenderOptions: the printer dpi, dither from the job else the printer, label options from the job', () => {
  assert.deepEqual(labelRenderOptions({ copies: 2, paperSize: '4x6', duplex: 'long-edge' }, { dpi: 300, dither: true }), {
    paperSize: '4x6', pageRange: undefined, orientation: undefined, fitToPage: undefined, dpi: 300, dither: true,
  });
  assert.equal(labelRenderOptions({ dither: false }, { dither: true }).dither, false, 'the job wins');
  assert.equal(labelRenderOptions({ dither: true }, {}).dither, true);
  assert.equal(labelRenderOptions({}, {}).dpi, 203, 'unknown: 203');
  assert.equal(labelRenderOptions({ orientation: 'reverse-landscape' }, {}).orientation, 'landscape', 'RasterOptions carries two orientations');
});

test('a PDF for a ZPL printer reaches pdfToZpl as a ZPL job with those options and ^PQ copies; other printers ignore dither and dpi', async () => {
  const seen: RenderJob[] = [];
  const pdfToZpl: PdfToZpl = async (job) => {
    seen.push(job);
    return { bytes: new TextEncoder().encode('^XA^XZ'), pages: 1, widthDots: 8, heightDots: 8 };
  };
  const input = { bytes: new Uint8Array([1]), format: 'pdf' as const, label: { dpi: 600, dither: true }, title: 't', userName: 'u', options: { dither: false, copies: 3 } };
  const signal = new AbortController().signal;
  const zpl = await prepareForPrinter({ ...input, printerContent: 'zpl' }, pdfToZpl, signal);
  assert.equal(new TextDecoder().decode(zpl.bytes), '^XA^XZ');
  assert.deepEqual([seen[0].format, seen[0].raster.dpi, seen[0].raster.dither, seen[0].encode], ['pdf', 600, false, { language: 'zpl', copies: 3 }]);
  const ipp = await prepareForPrinter({ ...input, printerContent: 'pdf' }, pdfToZpl, signal);
  assert.equal(ipp.mimeType, 'application/pdf');
  assert.equal(seen.length, 1);
});
