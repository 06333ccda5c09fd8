// The ESC/POS test receipt as a test document, shared by the receipt printer kinds (USB and TCP).
import type { TestDocument, TestPrintInfo } from './printer-kind';

/** The 80 mm test receipt; the receipt encoder is loaded on the first test receipt, not at start-up. */
export async function testReceiptDocument(info: TestPrintInfo): Promise<TestDocument> {
  const { buildTestReceipt } = await import('../escpos/test-receipt');
  return { title: 'Test receipt', data: Buffer.from(buildTestReceipt(info)), format: 'raw', contentType: 'raw' };
}
