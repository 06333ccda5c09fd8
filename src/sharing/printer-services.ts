// The DNS-SD services of shared printers (printer-sharing.md, Bonjour Printing 1.2): _ipp._tcp and _ipps._tcp with the
// _universal and _print subtypes and their TXT keys, and _printer._tcp on port 0 ("no LPD").
import type { AdvertisedService } from '../discovery/mdns-advertiser';
import type { PrinterLanguage } from '../filters/filters';
import { LANGUAGES } from '../languages';
import type { PrinterRecord } from '../schemas/printer';
import { makeAndModel, printerUuid } from './printer-attributes';
import { formatsOf } from './share-formats';

/** Where the shared printers answer, and what names them. */
export interface SharingPorts {
  /** The IPP port, or null when there is none (then the HTTP listener's port serves ipp://). */
  ippPort: number | null;
  httpPort: number;
  httpsPort: number | null;
  deviceId: string;
  /** The device's host name (`printproxy-<id>.local`) for adminurl. */
  hostName: string;
}

/** The services advertising every printer shared over IPP. */
export function printerServices(printers: readonly PrinterRecord[], languageOf: (p: PrinterRecord) => PrinterLanguage, ports: SharingPorts): AdvertisedService[] {
  return printers.filter((p) => p.share?.ipp).flatMap((printer) => servicesOf(printer, languageOf(printer), ports));
}

function servicesOf(printer: PrinterRecord, language: PrinterLanguage, ports: SharingPorts): AdvertisedService[] {
  const model = makeAndModel(printer, language);
  // instance names are at most 63 bytes and must differ per printer: the model, then the printer id
  const instance = `${model.slice(0, 50)} ${printer.id}`;
  const dpi = printer.dpi ?? 203;
  const txt = {
    txtvers: '1',
    qtotal: '1',
    rp: `ipp/print/${printer.id}`,
    ty: model,
    pdl: formatsOf(printer, language).join(','),
    URF: `V1.4,CP1,W8,RS${dpi}`,
    UUID: printerUuid(ports.deviceId, printer.id).replace('urn:uuid:', ''),
    adminurl: `http://${ports.hostName}:${ports.httpPort}/`,
    note: '',
    Color: 'F',
    Duplex: 'F',
    kind: LANGUAGES[language].ipp.dnsSdKind,
    printer_type: '0x1046',
  };
  const subtypes = ['_universal', '_print'];
  return [
    { type: '_ipp._tcp', instance, port: ports.ippPort ?? ports.httpPort, txt, subtypes },
    ...(ports.httpsPort !== null ? [{ type: '_ipps._tcp', instance, port: ports.httpsPort, txt: { ...txt, TLS: '1.2' }, subtypes }] : []),
    { type: '_printer._tcp', instance, port: 0, txt: {} },
  ];
}
