// USB printers (label, receipt, or an office printer taking PDF) over libusb: hotplug discovery, bulk OUT jobs, port status, dpi from the 1284 model string.
import { buildTestLabel } from '../../zpl/test-label-zpl';
import { buildTestPagePdf } from '../ipp/test-page-pdf';
import type { PrinterKind } from '../printer-kind';
import { StreamDriver } from '../stream-driver';
import { testReceiptDocument } from '../test-receipt-document';
import { UnsupportedDriver } from '../unsupported-driver';
import { dpiFromModel } from './printer-dpi';
import { UsbDiscovery } from './usb-discovery';
import { escposUsbStatus, zplUsbPreflight, zplUsbStatus } from './usb-bulk-status';
import { usbLocatorOf, usbPortStatus } from './usb-status';
import { UsbTransport } from './usb-transport';

/** How long a USB printer is given to answer `~HS` or DLE EOT on bulk IN before it counts as send-only, ms. */
const BULK_STATUS_MS = 700;

/**
 * A printer on the USB bus: ZPL printers take labels, PDF printers documents, the others are receipt (ESC/POS)
 * printers. ZPL printers that answer `~HS` get the pre-flight; receipt printers never do (seed 4.5.1 rule 3), though
 * their status is read.
 */
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
    const transport = new UsbTransport({ claims: usb, locator, writeTimeoutMs: deps.timeouts.idleMs });
    const zpl = printer.content === 'zpl';
    const portStatus = () => usbPortStatus(usb, locator, Math.min(deps.timeouts.queryMs, 900));
    // an office printer taking PDF is never sent a receipt printer's DLE EOT: it could print it
    const bulkStatus = () => (zpl ? zplUsbStatus(transport, BULK_STATUS_MS) : printer.content === 'pdf' ? Promise.resolve(null) : escposUsbStatus(transport, BULK_STATUS_MS));
    // a receipt printer's paper-out never fails a job; while a job is sent, port status (a control request) answers
    return new StreamDriver({
      transport,
      status: async () => (transport.sending ? null : await bulkStatus()) ?? portStatus(),
      statusBesideJobs: true,
      ...(zpl ? { preflight: () => zplUsbPreflight(transport, BULK_STATUS_MS), queryMs: deps.timeouts.queryMs } : {}),
    });
  },
  // a USB printer that names PDF in its 1284 command set (an office laser) takes documents as they are, like raw-tcp's
  language: (printer) => (printer.content === 'zpl' ? 'zpl' : printer.content === 'pdf' ? 'document' : 'escpos'),
  testDocument: async (printer, info) => {
    if (printer.content === 'zpl') return { title: 'Test label', data: Buffer.from(buildTestLabel(info), 'utf8'), format: 'zpl', contentType: 'zpl' };
    if (printer.content === 'pdf') return { title: 'Test page', data: buildTestPagePdf(info), format: 'pdf', contentType: 'pdf_base64' };
    return testReceiptDocument(info);
  },
  mayReturn: (path) => path.startsWith('usb_'),
  // labels are sent again (a duplicate beats a lost shipment); receipts are failed rather than printed twice
  interruptedJobs: (printer) => (printer.content === 'zpl' ? 'resend' : 'fail'),
};
