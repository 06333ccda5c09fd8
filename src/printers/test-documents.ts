// The test print of each printer kind (seed 4.6): a 4x6 ZPL label, an 80 mm ESC/POS receipt, or a PDF page.
import { AppError } from '../errors';
import type { Submission } from '../http/print-request';
import { buildTestLabel } from '../zpl/test-label-zpl';
import type { PrinterRecord } from './registry';

/** Builds a page for printers that take documents (IPP); supplied by the IPP module. */
export type TestPageBuilder = (info: { deviceId: string; printerPath: string; printedAt: Date }, printer: PrinterRecord) => Promise<{ data: Buffer; format: 'pdf' | 'jpeg'; contentType: string }>;

/** The inline test document for `printer`. */
export async function testDocumentFor(printer: PrinterRecord, deviceId: string, printedAt: Date, page: TestPageBuilder | null): Promise<Pick<Submission, 'document' | 'data' | 'title'>> {
  const info = { deviceId, printerPath: printer.path, printedAt };
  switch (printer.content) {
    case 'zpl':
      return { title: 'Test label', data: Buffer.from(buildTestLabel(info), 'utf8'), document: { source: { kind: 'inline' }, format: 'zpl', contentType: 'zpl' } };
    case 'raw': {
      // the receipt encoder is loaded on the first test receipt, not at start-up
      const { buildTestReceipt } = await import('../escpos/test-receipt');
      return { title: 'Test receipt', data: Buffer.from(buildTestReceipt(info)), document: { source: { kind: 'inline' }, format: 'raw', contentType: 'raw' } };
    }
    case 'pdf': {
      if (!page) throw new AppError('PRINT_FAILED', `no test page is available for ${printer.path} in this build`);
      const built = await page(info, printer);
      return { title: 'Test page', data: built.data, document: { source: { kind: 'inline' }, format: built.format, contentType: built.contentType } };
    }
  }
}
