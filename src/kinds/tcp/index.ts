// Raw TCP 9100 printers of any language: the language's pre-flight and status over the socket, or reachability alone.
import { languageOfContent, type LanguageModule } from '../../languages';
import { probeRawContent } from '../probe-raw-content';
import type { LiveStatus, PrinterRecord } from '../../schemas/printer';
import { probeTcp } from '../../transports/tcp-probe';
import { tcpTransportWith } from '../../transports/tcp-transport';
import type { TransportTimeouts } from '../../transports/transport';
import type { PrinterDriver } from '../printer-driver';
import type { KindDeps, PrinterKind } from '../printer-kind';
import { StreamDriver } from '../stream-driver';
import { isRawTcp, locateTcp, tcpAddress, tcpPath, tcpPathFromUri } from './tcp-connection';

/** Live status of a printer that is not asked anything on its socket: online when it accepts a connection. */
async function reachability(host: string, port: number, timeouts: TransportTimeouts): Promise<LiveStatus> {
  return (await probeTcp(host, port, Math.min(timeouts.connectMs, 900))) ? { status: 'online', statusReasons: [] } : { status: 'offline', statusReasons: [] };
}

/** The driver of a raw TCP printer: the language's pre-flight and status when it asks on a network socket, else reachability. */
function openTcpDriver(printer: PrinterRecord, language: LanguageModule, deps: KindDeps): PrinterDriver {
  const { host, port } = tcpAddress(printer.connection);
  const transport = tcpTransportWith(host, port, deps.timeouts);
  // a raw socket may be any printer: a language is asked only when it says its query is safe on a network socket
  const queries = language.device?.overNetwork ? language.device : null;
  const statusMs = Math.min(deps.timeouts.queryMs, 900);
  const { preflight, unprinted } = queries ?? {};
  return new StreamDriver({
    transport,
    ...(preflight ? { preflight: () => preflight(transport, deps.timeouts.queryMs, true) } : {}),
    status: queries ? () => queries.liveStatus(transport, statusMs) : () => reachability(host, port, deps.timeouts),
    ...(unprinted ? { unprinted: () => unprinted(transport, statusMs) } : {}),
    ...(queries?.hostQueries ? { queryMs: deps.timeouts.queryMs } : {}),
  });
}

/** Printers on a raw TCP socket; also the kind that addresses and probes every new manual TCP printer (its languages' probes in rank order). */
export const tcpKind: PrinterKind = {
  name: 'tcp',
  transport: 'tcp',
  matches: (printer) => isRawTcp(printer.connection),
  serves: isRawTcp,
  pathOf: tcpPath,
  locate: locateTcp,
  pathFromUri: tcpPathFromUri,
  probeContent: (connection, deps) => {
    const { host, port } = tcpAddress(connection);
    return probeRawContent(tcpTransportWith(host, port, deps.timeouts), deps.timeouts.queryMs);
  },
  start: (deps) => ({ discovery: [], openDriver: (printer, language) => openTcpDriver(printer, language, deps), stop: async () => undefined }),
  testDocument: (printer, info) => languageOfContent(printer.content).testDocument(printer, info),
  interruptedJobs: (printer) => languageOfContent(printer.content).interruptedJobs,
};

