// USB printers (label, receipt, or an office printer taking PDF) over libusb: hotplug discovery, bulk OUT jobs, port status, dpi from the 1284 model string.
import { buildTestLabel } from '../../zpl/test-label-zpl';
import { buildTestPagePdf } from '../ipp/test-page-pdf';
import type { PrinterKind } from '../printer-kind';
import { StreamDriver } from '../stream-driver';
import { testReceiptDocument } from '../test-receipt-document';
import { UnsupportedDriver } from '../unsupported-driver';
import { dpiFromModel } from './printer-dpi';
import { UsbDiscovery } from './usb-discovery';
import { usbLocatorOf, usbPortStatus } from './usb-status';
import { UsbTransport } from './usb-transport';

/** A printer on the USB bus: ZPL printers take labels, PDF printers documents, the others are receipt (ESC/POS) printers. No pre-flight (seed 4.5.1 rule 3). */
export const usbKind: PrinterKind = {
  name: 'usb',
  matches: (printer) => printer.connection.type === 'usb',
  discovery: (deps) => (deps.usb ? [new UsbDiscovery({ claims: deps.usb, timeoutMs: 2000, logger: deps.logger })] : []),
  reportedDpi: (printer) => dpiFromModel(printer.model),
  openDriver(printer, deps) {
    const locator = usbLocatorOf(printer.locator);
    if (!deps.usb) return new UnsupportedDriver(printer, 'USB is unavailable on this device (see GET /status warnings)');
    if (!locator) return new UnsupportedDriver(printer, 'the printer is not attached');
    const usb = deps.usb;
    // a receipt printer's paper-out never fails a job; port status is a control request beside the job's bulk transfers
    return new StreamDriver({
      transport: new UsbTransport({ claims: usb, locator, writeTimeoutMs: deps.timeouts.idleMs }),
      status: () => usbPortStatus(usb, locator, Math.min(deps.timeouts.queryMs, 900)),
      statusBesideJobs: true,
      ...(printer.content === 'zpl' ? { queryMs: deps.timeouts.queryMs } : {}),
    });
  },
  // a USB printer that names PDF in its 1284 command set (an office laser) takes documents as they are, like raw-tcp's
  language: (printer) => (printer.content === 'zpl' ? 'zpl' : printer.content === 'pdf' ? 'document' : 'escpos'),
  testDocument: async (printer, info) => {
    if (printer.content === 'zpl') return { title: 'Test label', data: Buffer.from(buildTestLabel(info), 'utf8'), format: 'zpl', contentType: 'zpl' };
    if (printer.content === 'pdf') return { title: 'Test page', data: buildTestPagePdf(info), format: 'pdf', contentType: 'pdf_base64' };
    return testReceiptDocument(info);
  },
  // labels are sent again (a duplicate beats a lost shipment); receipts are failed rather than printed twice
  interruptedJobs: (printer) => (printer.content === 'zpl' ? 'resend' : 'fail'),
};
