// IPP office printers (ipp, ipps): Print-Job with options, live job state, mDNS discovery, a PDF (or JPEG) test page.
import { readPdfiumWasm } from '../../render/render-assets';
import type { Connection } from '../../schemas/printer';
import type { PrinterKind } from '../printer-kind';
import { probeRawContent } from '../probe-raw-content';
import { tcpTransportWith } from '../../transports/tcp-transport';
import { ippProbe, IppDriver } from './ipp-driver';
import { ippPath, ippPathFromUri, ippUri, locateIpp } from './ipp-uri';
import { MdnsDiscovery } from './mdns-discovery';
import { buildTestPagePdf } from '../../languages/document/test-page-pdf';

const isIpp = (connection: Connection) => connection.type === 'network' && connection.protocol !== 'tcp';

/** IPP and IPPS printers; the mDNS browser also finds raw-socket (`_pdl-datastream`) printers, whose content it probes. */
export const ippKind: PrinterKind = {
  name: 'ipp',
  transport: 'ipp',
  matches: (printer) => isIpp(printer.connection),
  serves: isIpp,
  pathOf: ippPath,
  locate: locateIpp,
  pathFromUri: ippPathFromUri,
  probeContent: () => Promise.resolve('pdf'),
  start: (deps) => ({
    discovery: deps.mdns
      ? [new MdnsDiscovery({ scanMs: 1500, rescanMs: 300_000, probeRaw: (host, port) => probeRawContent(tcpTransportWith(host, port, deps.timeouts), deps.timeouts.queryMs), printerAt: deps.printerAt, logger: deps.logger })]
      : [],
    openDriver: (printer) => new IppDriver({ uri: ippUri(printer.connection), timeoutMs: 10_000, statusTimeoutMs: 900, busyRetryMs: 500, busyWaitMs: 120_000, logger: deps.logger }),
    stop: async () => undefined,
  }),
  language: 'document',
  async testDocument(printer, info) {
    const formats = printer.supportedFormats ?? (await ippProbe(ippUri(printer.connection), 2000).catch(() => null))?.supportedFormats ?? [];
    if (!formats.includes('application/pdf') && formats.includes('image/jpeg')) {
      // pdfium's JS and the JPEG encoder are loaded on the first JPEG test page, not at start-up
      const { buildTestPageJpeg } = await import('./test-page-jpeg');
      return { title: 'Test page', data: await buildTestPageJpeg(info, readPdfiumWasm()), format: 'jpeg', contentType: 'jpeg' };
    }
    return { title: 'Test page', data: buildTestPagePdf(info), format: 'pdf', contentType: 'pdf_base64' };
  },
  // an upload a restart cut off created no job at the printer; an accepted job is the printer's and is not in the spool
  interruptedJobs: () => 'resend',
};
