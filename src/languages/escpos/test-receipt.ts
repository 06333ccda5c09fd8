// The ESC/POS test receipt for 80 mm paper (48 columns), built with @point-of-sale/receipt-printer-encoder.
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';

/** What the test receipt shows. */
export interface TestReceiptInfo {
  deviceId: string;
  printerPath: string;
  printedAt: Date;
}

/** Bytes of the receipt: ESC @, a header, device and printer identity, a Code 128 barcode, a feed and a cut. */
export function buildTestReceipt(info: TestReceiptInfo): Uint8Array {
  const encoder = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: 48 });
  return encoder
    .initialize()
    .align('center')
    .bold(true)
    .size(2, 2)
    .line('printproxyd')
    .size(1, 1)
    .line('test receipt')
    .bold(false)
    .rule()
    .align('left')
    .line(`Device:  printproxy-${info.deviceId}`)
    .line(`Printer: ${info.printerPath}`)
    .line(`Printed: ${info.printedAt.toISOString().replace('T', ' ').slice(0, 19)} UTC`)
    .line('Paper:   80 mm, 48 columns')
    .rule()
    .align('center')
    .barcode(info.deviceId.toUpperCase(), 'code128', 60)
    .newline(2)
    .cut('partial')
    .encode();
}
