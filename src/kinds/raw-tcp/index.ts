// A raw TCP 9100 printer that is not ZPL: a receipt printer (ESC/POS), or one that takes PDF on the socket.
import { buildTestPagePdf } from '../ipp/test-page-pdf';
import type { PrinterKind } from '../printer-kind';
import { StreamDriver } from '../stream-driver';
import { isRawTcp, tcpAddress } from '../tcp-connection';
import { testReceiptDocument } from '../test-receipt-document';
import { rawTcpStatus, tcpTransport } from '../zpl-tcp/zpl-tcp';

/** Raw bytes over TCP: no pre-flight, online when it accepts a connection; content `pdf` takes documents, else ESC/POS. */
export const rawTcpKind: PrinterKind = {
  name: 'raw-tcp',
  matches: (printer) => isRawTcp(printer.connection) && printer.content !== 'zpl',
  openDriver(printer, deps) {
    const { host, port } = tcpAddress(printer.connection);
    return new StreamDriver({ transport: tcpTransport(host, port, deps.timeouts), status: () => rawTcpStatus(host, port, deps.timeouts) });
  },
  language: (printer) => (printer.content === 'pdf' ? 'document' : 'escpos'),
  testDocument: async (printer, info) =>
    printer.content === 'pdf' ? { title: 'Test page', data: buildTestPagePdf(info), format: 'pdf', contentType: 'pdf_base64' } : testReceiptDocument(info),
  // a receipt may be an order ticket: a restart fails it with a clear error rather than risk printing it twice
  interruptedJobs: () => 'fail',
};
