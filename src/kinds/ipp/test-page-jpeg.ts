// The test page as a JPEG, for IPP printers whose formats have image/jpeg but not application/pdf.
import { encode } from 'jpeg-js';
import { DeviceError } from '../../errors';
import { initPdfium } from '../../render/pdfium-init';
import { buildTestPagePdf, type TestPageInfo } from '../../languages/document/test-page-pdf';

const BITMAP_BGRA = 4;
const WHITE = 0xffffffff;
const FPDF_ANNOT = 0x01;
const FPDF_PRINTING = 0x800;

/** Renders the PDF test page with pdfium at `dpi` (anti-aliased, it is a picture) and encodes it as a baseline JPEG. */
export async function buildTestPageJpeg(info: TestPageInfo, wasm: Uint8Array, dpi = 150): Promise<Buffer> {
  const pdfium = await initPdfium(wasm);
  const pdf = buildTestPagePdf(info);
  const heap = pdfium.pdfium;
  const ptr = heap.wasmExports.malloc(pdf.length);
  try {
    heap.HEAPU8.set(pdf, ptr);
    const doc = pdfium.FPDF_LoadMemDocument(ptr, pdf.length, '');
    if (!doc) throw new DeviceError('RENDER_FAILED', 'test page could not be parsed');
    const page = pdfium.FPDF_LoadPage(doc, 0);
    const width = Math.round((pdfium.FPDF_GetPageWidthF(page) / 72) * dpi);
    const height = Math.round((pdfium.FPDF_GetPageHeightF(page) / 72) * dpi);
    const bitmap = pdfium.FPDFBitmap_CreateEx(width, height, BITMAP_BGRA, 0, 0);
    pdfium.FPDFBitmap_FillRect(bitmap, 0, 0, width, height, WHITE);
    pdfium.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0, FPDF_ANNOT | FPDF_PRINTING);
    const stride = pdfium.FPDFBitmap_GetStride(bitmap);
    const bgra = heap.HEAPU8.subarray(pdfium.FPDFBitmap_GetBuffer(bitmap), pdfium.FPDFBitmap_GetBuffer(bitmap) + stride * height);
    const rgba = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y += 1) {
      for (let x = 0; x < width; x += 1) {
        const s = y * stride + x * 4;
        const d = (y * width + x) * 4;
        rgba[d] = bgra[s + 2];
        rgba[d + 1] = bgra[s + 1];
        rgba[d + 2] = bgra[s];
        rgba[d + 3] = 255;
      }
    }
    pdfium.FPDFBitmap_Destroy(bitmap);
    pdfium.FPDF_ClosePage(page);
    pdfium.FPDF_CloseDocument(doc);
    return Buffer.from(encode({ data: rgba, width, height }, 85).data);
  } finally {
    heap.wasmExports.free(ptr);
  }
}
