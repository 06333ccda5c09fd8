// Assembles what depends on printer kinds: transports, drivers, discovery, the spooler and the print routes.
import { join } from 'node:path';
import type { DiscoverySource } from '../discovery/source';
import type { Route } from '../http/route';
import { jobRoutes } from '../http/routes/jobs';
import { printRoutes } from '../http/routes/print';
import type { Logger } from '../log';
import type { ContentKind, CreatePrinterBody } from '../schemas/printer';
import type { SettingsStore } from '../settings/settings-store';
import { DiskSpool } from '../spooler/disk-spool';
import { JobStore } from '../spooler/job-store';
import { documentLoader } from '../spooler/load-document';
import { Spooler } from '../spooler/spooler';
import { createDriverFactory, type TransportTimeouts } from './drivers/driver-factory';
import type { PrinterRecord, PrinterRegistry } from './registry';
import type { LiveStatus, StatusCache } from './status-cache';
import { testDocumentFor } from './test-documents';
import { probeZplContent } from './drivers/zpl-tcp';
import { ippProbe } from './drivers/ipp-driver';
import { ippUri } from './drivers/driver-factory';
import { buildTestPagePdf } from '../ipp/test-page-pdf';
import { readPdfiumWasm } from '../render/render-assets';
import type { TestPageBuilder } from './test-documents';
import { createRenderService, renderPoolStarter } from '../render/render-service';
import { renderWorkersOf } from '../settings/render-workers';
import { UsbDiscovery } from '../discovery/usb-discovery';
import { InterfaceClaims } from '../usb/usb-claim';
import { MdnsDiscovery } from '../discovery/mdns-discovery';
import { MdnsAdvertiser } from '../discovery/mdns-advertiser';
import { lanAddress } from '../device/system-info';
import type { UsbBackend } from '../usb/usb-backend';

/** Inputs of the printer services. */
export interface PrinterServicesDeps {
  dataDir: string;
  settings: SettingsStore;
  logger: Logger;
  mdns: boolean;
  timeouts: TransportTimeouts;
  /** The USB bus (libusb, or a fake in tests); null when it could not be opened. */
  usb: UsbBackend | null;
  /** Subsystems that fail to start add a line here (shown in GET /status). */
  warnings: string[];
}

/** The printer-kind–specific half of the daemon. */
export interface PrinterServices {
  sources: DiscoverySource[];
  probeContent(connection: CreatePrinterBody['connection']): Promise<ContentKind>;
  liveStatus(printer: PrinterRecord): Promise<LiveStatus>;
  start(registry: PrinterRegistry, status: StatusCache): Promise<void>;
  routes(): Route[];
  advertise(deviceId: string, httpPort: number, httpsPort: number | null): Promise<void>;
  stop(): Promise<void>;
}

const HOUR_MS = 3_600_000;

/** True for printers reached over IPP (network, not raw TCP). */
function isIpp(printer: PrinterRecord): boolean {
  return printer.connection.type === 'network' && printer.connection.protocol !== 'tcp';
}

/** First scan (in the background: start-up does not wait for mDNS), then watching; failures become warnings in GET /status. */
async function startDiscovery(registry: PrinterRegistry, sources: DiscoverySource[], deps: PrinterServicesDeps): Promise<void> {
  void registry.discover().then((report) => deps.warnings.push(...report.warnings));
  for (const source of sources) {
    try {
      await source.start?.((event) => registry.apply(source.name, event));
    } catch (err) {
      deps.warnings.push(`${source.name} watching failed: ${(err as Error).message}`);
    }
  }
}

/** The test page of a document printer: PDF, or a JPEG of it when the printer lists JPEG but not PDF. */
const testPage: TestPageBuilder = async (info, printer) => {
  const formats = printer.supportedFormats ?? (await ippProbe(ippUri(printer.connection), 2000).catch(() => null))?.supportedFormats ?? [];
  if (!formats.includes('application/pdf') && formats.includes('image/jpeg')) {
    // pdfium's JS and the JPEG encoder are loaded on the first JPEG test page, not at start-up
    const { buildTestPageJpeg } = await import('../ipp/test-page-jpeg');
    return { data: await buildTestPageJpeg(info, readPdfiumWasm()), format: 'jpeg', contentType: 'jpeg' };
  }
  return { data: buildTestPagePdf(info), format: 'pdf', contentType: 'pdf_base64' };
};

/** Builds the printer services for this device. */
export function createPrinterServices(deps: PrinterServicesDeps): PrinterServices {
  // one set of interface claims per bus: discovery, jobs and status probes of a printer share its claim
  const usbClaims = deps.usb ? new InterfaceClaims(deps.usb) : null;
  const driverFor = createDriverFactory({ timeouts: deps.timeouts, logger: deps.logger, usb: usbClaims });
  const sources: DiscoverySource[] = [
    ...(usbClaims ? [new UsbDiscovery({ claims: usbClaims, timeoutMs: 2000, logger: deps.logger })] : []),
    ...(deps.mdns ? [new MdnsDiscovery({ scanMs: 1500, rescanMs: 300_000, probeRaw: (host, port) => probeZplContent(host, port, deps.timeouts), logger: deps.logger })] : []),
  ];
  let advertiser: MdnsAdvertiser | null = null;
  const store = new JobStore({ retentionMs: HOUR_MS, maxRecords: 10_000 });
  const pdf = createRenderService({
    workers: () => renderWorkersOf(deps.settings.value),
    startPool: renderPoolStarter({ maxQueue: 64, jobTimeoutMs: 30_000, logger: deps.logger }),
  });
  // a changed worker count retires the running pool once its renders are done
  const stopResizing = deps.settings.onChange(pdf.resize);
  const roots = () => [join(deps.dataDir, 'files'), ...deps.settings.value.shares.map((s) => s.sharePath)];
  let spooler: Spooler | null = null;
  let registry: PrinterRegistry | null = null;
  const started = () => {
    if (!spooler || !registry) throw new Error('printer services used before start');
    return { spooler, registry };
  };
  return {
    sources,
    probeContent: (connection) => (connection.protocol === 'tcp' ? probeZplContent(connection.host, connection.port ?? 9100, deps.timeouts) : Promise.resolve('pdf')),
    async liveStatus(printer) {
      if (!isIpp(printer)) return driverFor(printer).status();
      const info = await ippProbe(ippUri(printer.connection), 900).catch(() => null);
      if (!info) return { status: 'offline', statusReasons: [] };
      registry?.setDetails(printer.path, { capabilities: info.capabilities, supportedFormats: info.supportedFormats });
      return info.live;
    },
    async start(reg, status) {
      registry = reg;
      spooler = new Spooler({
        store,
        spool: new DiskSpool(join(deps.dataDir, 'spool')),
        driverFor,
        findPrinter: (path) => reg.find(path),
        loadDocument: documentLoader(() => ({ timeoutMs: 30_000, maxRedirects: 5, maxBytes: deps.settings.value.maxBodyBytes }), roots),
        pdfToZpl: pdf.render,
        logger: deps.logger,
        holdRetryMs: 2000,
        maxHoldMs: HOUR_MS,
        onJobEnded: (job) => status.invalidate(job.printer),
      });
      await startDiscovery(reg, sources, deps);
      const recovered = spooler.recover();
      if (recovered > 0) deps.logger.info('spooled jobs recovered', { count: recovered });
    },
    routes() {
      const { spooler: s, registry: r } = started();
      const deviceId = deps.settings.value.deviceId;
      return [
        ...printRoutes({ registry: r, spooler: s, roots, testDocument: (printer) => testDocumentFor(printer, deviceId, new Date(), testPage) }),
        ...jobRoutes(s, store),
      ];
    },
    async advertise(deviceId, httpPort, httpsPort) {
      if (!deps.mdns) return;
      const name = `printproxy-${deviceId}`;
      const txt = { path: '/api/v1', id: deviceId };
      advertiser = new MdnsAdvertiser({
        hostName: name,
        address: lanAddress(),
        services: [{ type: '_http._tcp', instance: name, port: httpPort, txt }, ...(httpsPort ? [{ type: '_https._tcp', instance: name, port: httpsPort, txt }] : [])],
        logger: deps.logger,
      });
      try {
        advertiser.start();
      } catch (err) {
        deps.warnings.push(`mDNS advertising failed: ${(err as Error).message}`);
      }
    },
    async stop() {
      await advertiser?.stop();
      await Promise.all(sources.map((source) => source.stop?.()));
      await spooler?.close(5000);
      stopResizing();
      await pdf.close();
    },
  };
}
