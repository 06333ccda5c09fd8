// The ZPL label printer on TCP 9100: `~HS` pre-flight and status, ZPL test label, interrupted jobs sent again.
import { buildTestLabel } from '../../zpl/test-label-zpl';
import { networkPath } from '../printer-path';
import type { PrinterKind } from '../printer-kind';
import { StreamDriver } from '../stream-driver';
import { isRawTcp, tcpAddress } from '../tcp-connection';
import { probeZplContent, tcpTransport, zplTcpPreflight, zplTcpStatus, zplTcpUnprinted } from './zpl-tcp';

/** ZPL over TCP; also the kind that addresses and probes every new manual TCP printer (a `~HS` answer means ZPL). */
export const zplTcpKind: PrinterKind = {
  name: 'zpl-tcp',
  matches: (printer) => isRawTcp(printer.connection) && printer.content === 'zpl',
  serves: isRawTcp,
  pathOf: networkPath,
  probeContent: (connection, deps) => {
    const { host, port } = tcpAddress(connection);
    return probeZplContent(host, port, deps.timeouts);
  },
  openDriver(printer, deps) {
    const { host, port } = tcpAddress(printer.connection);
    const transport = tcpTransport(host, port, deps.timeouts);
    return new StreamDriver({
      transport,
      preflight: () => zplTcpPreflight(transport, deps.timeouts),
      status: () => zplTcpStatus(transport, deps.timeouts),
      unprinted: () => zplTcpUnprinted(transport, deps.timeouts),
      queryMs: deps.timeouts.queryMs,
    });
  },
  language: () => 'zpl',
  testDocument: async (_printer, info) => ({ title: 'Test label', data: Buffer.from(buildTestLabel(info), 'utf8'), format: 'zpl', contentType: 'zpl' }),
  // a duplicate label is better than a lost shipment
  interruptedJobs: () => 'resend',
};
