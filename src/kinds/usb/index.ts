// USB printers of any language over libusb: hotplug discovery, bulk OUT jobs, the language's status on bulk IN, port status, dpi from the 1284 model string.
import { languageOfContent, type LanguageModule } from '../../languages';
import type { LiveStatus, PrinterRecord } from '../../schemas/printer';
import type { UsbBackend } from '../../usb/usb-backend';
import { InterfaceClaims } from '../../usb/usb-claim';
import type { PrinterDriver } from '../printer-driver';
import type { KindDeps, PrinterKind } from '../printer-kind';
import { StreamDriver } from '../stream-driver';
import { UnsupportedDriver } from '../unsupported-driver';
import { dpiFromModel } from './printer-dpi';
import { UsbDiscovery } from './usb-discovery';
import { usbLocatorOf, usbPortStatus } from './usb-status';
import { UsbTransport } from './usb-transport';

/** How long a USB printer is given to answer its language's status query on bulk IN before it counts as send-only, ms. */
const BULK_STATUS_MS = 700;

/** A language's answer, or null when the printer said nothing (then port status tells what it can). */
const answered = (status: LiveStatus): LiveStatus | null => (status.status === 'unknown' || status.status === 'offline' ? null : status);

/** Opens the USB bus (`deps.hardware.usb`) with one set of interface claims; null, with a warning, when libusb cannot load. */
function openBus(deps: KindDeps): InterfaceClaims | null {
  let usb: UsbBackend;
  try {
    usb = deps.hardware.usb(deps.logger);
  } catch (err) {
    const line = `USB unavailable, USB printers are off: ${(err as Error).message}`;
    deps.warn(line);
    deps.logger.warn(line);
    return null;
  }
  // the backend logged its hotplug mode as it opened
  if (usb.hotplug === 'sysfs' && usb.hotplugText) deps.warn(usb.hotplugText);
  // one set of interface claims per bus: discovery, jobs and status probes of a printer share its claim
  return new InterfaceClaims(usb);
}

/** The driver of a USB printer in `language` on the bus of `claims` (null: no USB on this device). */
function openUsbDriver(printer: PrinterRecord, language: LanguageModule, claims: InterfaceClaims | null, deps: KindDeps): PrinterDriver {
  const locator = usbLocatorOf(printer.locator);
  if (!claims) return new UnsupportedDriver(printer, 'USB is unavailable on this device (see GET /status warnings)');
  if (!locator) return new UnsupportedDriver(printer, 'the printer is not attached');
  const transport = new UsbTransport({ claims, locator, writeTimeoutMs: deps.timeouts.idleMs });
  const queries = language.device;
  const preflight = queries?.preflight;
  const portStatus = () => usbPortStatus(claims, locator, Math.min(deps.timeouts.queryMs, 900));
  const bulkStatus = async () => (queries ? answered(await queries.liveStatus(transport, BULK_STATUS_MS)) : null);
  return new StreamDriver({
    transport,
    status: async () => (await bulkStatus()) ?? portStatus(),
    controlStatus: portStatus,
    ...(preflight ? { preflight: () => preflight(transport, BULK_STATUS_MS, false) } : {}),
    ...(queries?.hostQueries ? { queryMs: deps.timeouts.queryMs } : {}),
  });
}

/**
 * A printer on the USB bus, in the language its 1284 id named (its record's `content`). Languages with a pre-flight
 * get it without recovery (a send-only printer is not reset); receipt printers never do (seed 4.5.1 rule 3), though
 * their status is read. Port status (a control request) answers when the language's query does not, and is the
 * control channel the runtime reads while a job holds the device.
 */
export const usbKind: PrinterKind = {
  name: 'usb',
  transport: 'usb',
  matches: (printer) => printer.connection.type === 'usb',
  reportedDpi: (printer) => dpiFromModel(printer.model),
  start(deps) {
    const claims = openBus(deps);
    return {
      discovery: claims ? [new UsbDiscovery({ claims, timeoutMs: 2000, logger: deps.logger })] : [],
      openDriver: (printer, language) => openUsbDriver(printer, language, claims, deps),
      stop: async () => claims?.closeAll(),
    };
  },
  testDocument: (printer, info) => languageOfContent(printer.content).testDocument(printer, info),
  mayReturn: (path) => path.startsWith('usb_'),
  // labels are sent again (a duplicate beats a lost shipment); receipts and documents are failed rather than printed twice
  interruptedJobs: (printer) => languageOfContent(printer.content).interruptedJobs,
};
