// The standard fonts' glyph cache kept between documents: opened once, renewed every N documents, output unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WrappedPdfiumModule } from '@embedpdf/pdfium';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { initPdfium, pdfiumHeap } from '../../src/render/pdfium-init';
import { SimdThreshold } from '../../src/render/mono-simd';
import { PdfGlyphCache, standardFontsPdf } from '../../src/render/pdf-glyph-cache';
import { PdfRasteriser } from '../../src/render/pdf-rasteriser';
import { resolveRaster } from '../../src/render/render-options';
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { pdfiumWasm } from './pdfium-fixture';

/** A fake pdfium that counts the keeper's documents: loads, pages, closes, frees. */
function countingPdfium() {
  const calls = { loads: 0, closes: 0, pageCloses: 0, frees: [] as number[], mallocs: [] as number[] };
  let next = 16;
  const heap = new Uint8Array(1 << 16);
  const fake = {
    pdfium: {
      HEAPU8: heap,
      wasmExports: {
        malloc: (n: number) => {
          const ptr = next;
          next += n + 16;
          calls.mallocs.push(ptr);
          return ptr;
        },
        free: (ptr: number) => void calls.frees.push(ptr),
      },
    },
    FPDF_LoadMemDocument: () => ++calls.loads,
    FPDF_LoadPage: () => 100,
    FPDFBitmap_CreateEx: () => 200,
    FPDF_RenderPageBitmap: () => undefined,
    FPDFBitmap_Destroy: () => undefined,
    FPDF_ClosePage: () => void (calls.pageCloses += 1),
    FPDF_CloseDocument: () => void (calls.closes += 1),
  };
  return { pdfium: fake as unknown as WrappedPdfiumModule, calls };
}

test('the keeper document opens before the first document and stays open across documents', () => {
  const { pdfium, calls } = countingPdfium();
  const cache = new PdfGlyphCache(pdfium, 4);
  assert.equal(calls.loads, 0, 'nothing is opened before a document is rendered');
  for (let i = 0; i < 4; i += 1) cache.beforeDocument();
  assert.deepEqual([calls.loads, calls.closes], [1, 0]);
});

test('every renewEvery documents the keeper is closed, its bytes freed, and opened afresh', () => {
  const { pdfium, calls } = countingPdfium();
  const cache = new PdfGlyphCache(pdfium, 3);
  for (let i = 0; i < 7; i += 1) cache.beforeDocument();
  assert.deepEqual([calls.loads, calls.closes, calls.pageCloses], [3, 2, 2]);
  assert.deepEqual(calls.frees, calls.mallocs.slice(0, 2), 'each closed keeper frees the bytes it was loaded from');
  cache.close();
  assert.deepEqual([calls.closes, calls.frees.length], [3, 3]);
  cache.close();
  assert.equal(calls.closes, 3, 'closing twice closes once');
});

test('the keeper PDF is a valid one-page document pdfium opens', async () => {
  const pdfium = await initPdfium(pdfiumWasm());
  const bytes = standardFontsPdf();
  const ptr = pdfium.pdfium.wasmExports.malloc(bytes.length);
  pdfium.pdfium.HEAPU8.set(bytes, ptr);
  const doc = pdfium.FPDF_LoadMemDocument(ptr, bytes.length, '');
  assert.ok(doc, 'pdfium opens it');
  assert.equal(pdfium.FPDF_GetPageCount(doc), 1);
  assert.ok(pdfium.FPDF_DocumentHasValidCrossReferenceTable(doc), 'its xref offsets are right');
  pdfium.FPDF_CloseDocument(doc);
  pdfium.pdfium.wasmExports.free(ptr);
});

/** Text in all 14 standard fonts at several sizes, the fonts a label without embedded fonts uses. */
async function standardTextPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([288, 432]);
  let y = 420;
  for (const name of Object.values(StandardFonts)) {
    const font = await doc.embedFont(name);
    const special: Partial<Record<StandardFonts, string>> = { [StandardFonts.Symbol]: 'αβγδεπ', [StandardFonts.ZapfDingbats]: '✓✔✕✖✈' };
    const text = special[name] ?? 'Ship 1Z999 AA1 gjy';
    for (const size of [6, 9, 13]) {
      page.drawText(text, { x: 6 + (size - 6) * 13, y, size, font });
    }
    y -= 29;
  }
  return doc.save();
}

function pages(rasteriser: PdfRasteriser, pdf: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  rasteriser.rasterise(pdf, resolveRaster({ dpi: 203 }), (page: MonoBitmap) => void out.push(page.data.slice()));
  return out;
}

test('labels drawn with glyphs kept from earlier documents (and thresholded in wasm) are the same dots as drawn cold', async () => {
  const docs = [await standardTextPdf(), await shippingLabelPdf()];
  const warmPdfium = await initPdfium(pdfiumWasm());
  const heap = pdfiumHeap(warmPdfium);
  assert.ok(heap, 'pdfium exports its memory');
  // kept glyphs and SIMD thresholding against neither: the same dots
  const kept = new PdfRasteriser(warmPdfium, new PdfGlyphCache(warmPdfium), SimdThreshold.create(heap));
  const coldPdfium = await initPdfium(pdfiumWasm());
  const cold = new PdfRasteriser(coldPdfium, new PdfGlyphCache(coldPdfium, 1), undefined);
  for (let round = 0; round < 3; round += 1) {
    for (const pdf of docs) {
      const a = pages(kept, pdf);
      const b = pages(cold, pdf);
      assert.equal(a.length, 1);
      assert.ok(a[0].some((v) => v !== 0), 'the page has black dots');
      assert.deepEqual(a, b, `round ${round + 1}: same dots with and without kept glyphs`);
    }
  }
});
