// The printer attributes of a shared printer (RFC 8011, PWG 5100.12/5100.14 IPP Everywhere), from its record and live state.
import { createHash } from 'node:crypto';
import type { PrinterLanguage } from '../filters/filters';
import { LANGUAGES } from '../languages';
import type { IppAttribute } from '../ipp/ipp-wire';
import type { PrinterRecord } from '../schemas/printer';
import { DPI_UNITS, IPP_OP } from '../ipp/ipp-constants';
import { boolean, charset, collection, dateTime, enumeration, integer, keyword, language, mimeType, nameValue, octets, outOfBand, range, resolution, text, uri, uriScheme } from './ipp-values';
import { formatsOf } from './share-formats';
import { mediaOf, type Medium } from './share-media';
import { TAG } from '../ipp/ipp-wire';

/** Live state of a shared printer as IPP says it. */
export interface IppPrinterState {
  /** printer-state: 3 idle, 4 processing, 5 stopped. */
  state: number;
  /** printer-state-reasons keywords; ['none'] when there is nothing to say. */
  reasons: string[];
  message: string;
  /** When state or reasons last changed. */
  changedAt: Date;
}

/** What the attributes are built from. */
export interface PrinterFacts {
  printer: PrinterRecord;
  language: PrinterLanguage;
  /** The printer URI this request reached (ipp:// or ipps://). */
  uri: string;
  secure: boolean;
  /** The device's web address (http), for printer-more-info and friends. */
  webUrl: string;
  deviceId: string;
  live: IppPrinterState;
  queuedJobs: number;
  /** When the daemon started (printer-up-time counts from it, in seconds, at least 1). */
  startedAt: Date;
  now: Date;
}

/** Job template attributes a client may send (job-creation-attributes-supported). */
const JOB_CREATION = ['copies', 'media', 'media-col', 'orientation-requested', 'page-ranges', 'print-color-mode', 'print-content-optimize', 'print-quality', 'print-rendering-intent', 'printer-resolution', 'sides'];
const OPERATIONS = Object.values(IPP_OP);

/** A stable urn:uuid for a printer on this device (name-based, SHA-1, RFC 9562 version 5 layout). */
export function printerUuid(deviceId: string, printerId: string): string {
  const h = createHash('sha1').update(`printproxyd:${deviceId}:${printerId}`).digest('hex');
  const variant = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** make-and-model of a shared printer: its model, or what kind of printer it is. */
export function makeAndModel(printer: PrinterRecord, language: PrinterLanguage): string {
  return (printer.model ?? `Generic ${LANGUAGES[language].ipp.modelText}`).slice(0, 127);
}

/** Every printer attribute of a shared printer, in a stable order. */
export function printerAttributes(f: PrinterFacts): IppAttribute[] {
  return [...descriptionAttributes(f), ...stateAttributes(f), ...templateAttributes(f), ...mediaAttributes(f), ...rasterAttributes(f)];
}

function descriptionAttributes(f: PrinterFacts): IppAttribute[] {
  const { printer } = f;
  const model = makeAndModel(printer, f.language);
  const formats = formatsOf(printer, f.language);
  return [
    uri('printer-uri-supported', f.uri),
    keyword('uri-authentication-supported', 'none'),
    keyword('uri-security-supported', f.secure ? 'tls' : 'none'),
    nameValue('printer-name', `${model} ${printer.id}`.slice(0, 127)),
    text('printer-info', `${model} (${printer.path})`.slice(0, 127)),
    text('printer-location', ''),
    text('printer-make-and-model', model),
    uri('printer-more-info', `${f.webUrl}/`),
    uri('printer-supply-info-uri', `${f.webUrl}/`),
    uri('printer-icons', `${f.webUrl}/ipp/icon.png`),
    text('printer-device-id', `MFG:${model.split(' ')[0] || 'Generic'};MDL:${model.replace(/[;:]/g, ' ')};CMD:${LANGUAGES[f.language].ipp.commandSet},PDF,PWGRaster,URF;`),
    uri('printer-uuid', printerUuid(f.deviceId, printer.id)),
    outOfBand('printer-geo-location', TAG.unknown),
    text('printer-organization', ''),
    text('printer-organizational-unit', ''),
    enumeration('operations-supported', ...OPERATIONS),
    charset('charset-configured', 'utf-8'),
    charset('charset-supported', 'utf-8'),
    language('natural-language-configured', 'en'),
    language('generated-natural-language-supported', 'en'),
    keyword('ipp-versions-supported', '1.1', '2.0'),
    keyword('ipp-features-supported', 'ipp-everywhere'),
    mimeType('document-format-default', 'application/octet-stream'),
    mimeType('document-format-supported', ...formats),
    keyword('compression-supported', 'none'),
    keyword('pdl-override-supported', 'attempted'),
    keyword('printer-get-attributes-supported', 'document-format'),
    boolean('color-supported', false),
    integer('pages-per-minute', 1),
    boolean('job-ids-supported', true),
    boolean('preferred-attributes-supported', false),
    boolean('multiple-document-jobs-supported', false),
    integer('multiple-operation-time-out', 60),
    keyword('multiple-operation-time-out-action', 'abort-job'),
    keyword('which-jobs-supported', 'completed', 'not-completed', 'all'),
    keyword('job-creation-attributes-supported', ...JOB_CREATION),
    keyword('identify-actions-default', 'display'),
    keyword('identify-actions-supported', 'display'),
    keyword('overrides-supported', 'document-number', 'pages'),
    uriScheme('reference-uri-schemes-supported', 'http', 'https'),
    range('job-k-octets-supported', { lower: 0, upper: 65536 }),
  ];
}

function stateAttributes(f: PrinterFacts): IppAttribute[] {
  const up = Math.max(1, Math.floor((f.now.getTime() - f.startedAt.getTime()) / 1000));
  const changed = Math.max(0, Math.floor((f.live.changedAt.getTime() - f.startedAt.getTime()) / 1000));
  const supply = f.live.reasons.some((r) => r.startsWith('media-empty')) ? 0 : -3;
  return [
    enumeration('printer-state', f.live.state),
    keyword('printer-state-reasons', ...f.live.reasons),
    text('printer-state-message', f.live.message.slice(0, 255)),
    dateTime('printer-state-change-date-time', f.live.changedAt),
    integer('printer-state-change-time', changed),
    dateTime('printer-config-change-date-time', f.startedAt),
    integer('printer-config-change-time', 0),
    dateTime('printer-current-time', f.now),
    integer('printer-up-time', up),
    boolean('printer-is-accepting-jobs', true),
    integer('queued-job-count', f.queuedJobs),
    octets('printer-supply', Buffer.from(`index=1;class=supplyThatIsConsumed;type=other;unit=percent;maxcapacity=100;level=${supply};colorantname=unknown;`)),
    text('printer-supply-description', LANGUAGES[f.language].ipp.supplyDescription),
  ];
}

function templateAttributes(f: PrinterFacts): IppAttribute[] {
  const dpi = f.printer.dpi ?? 203;
  return [
    integer('copies-default', 1),
    range('copies-supported', { lower: 1, upper: 9999 }),
    enumeration('finishings-default', 3),
    enumeration('finishings-supported', 3),
    boolean('page-ranges-supported', true),
    enumeration('orientation-requested-default', 3),
    enumeration('orientation-requested-supported', 3, 4, 5, 6),
    keyword('output-bin-default', 'face-up'),
    keyword('output-bin-supported', 'face-up'),
    enumeration('print-quality-default', 4),
    enumeration('print-quality-supported', 3, 4, 5),
    resolution('printer-resolution-default', { x: dpi, y: dpi, units: DPI_UNITS }),
    resolution('printer-resolution-supported', { x: dpi, y: dpi, units: DPI_UNITS }),
    keyword('sides-default', 'one-sided'),
    keyword('sides-supported', 'one-sided'),
    keyword('print-color-mode-default', 'monochrome'),
    keyword('print-color-mode-supported', 'monochrome'),
    keyword('print-content-optimize-default', 'auto'),
    keyword('print-content-optimize-supported', 'auto'),
    keyword('print-rendering-intent-default', 'auto'),
    keyword('print-rendering-intent-supported', 'auto'),
    keyword('job-sheets-default', 'none'),
    keyword('job-sheets-supported', 'none'),
    integer('number-up-default', 1),
    integer('number-up-supported', 1),
  ];
}

function mediaAttributes(f: PrinterFacts): IppAttribute[] {
  const media = mediaOf(f.printer, f.language);
  const { mediaSource: source, mediaType: type } = LANGUAGES[f.language].ipp;
  const col = (m: Medium) => mediaCol(m, source, type);
  return [
    keyword('media-default', media[0].name),
    keyword('media-ready', media[0].name),
    keyword('media-supported', ...media.map((m) => m.name)),
    collection('media-col-default', col(media[0])),
    collection('media-col-ready', col(media[0])),
    collection('media-col-database', ...media.map(col)),
    keyword('media-col-supported', 'media-bottom-margin', 'media-left-margin', 'media-right-margin', 'media-size', 'media-source', 'media-top-margin', 'media-type'),
    collection('media-size-supported', ...media.map(sizeMembers)),
    keyword('media-source-supported', source),
    keyword('media-type-supported', type),
    integer('media-bottom-margin-supported', MARGIN),
    integer('media-left-margin-supported', MARGIN),
    integer('media-right-margin-supported', MARGIN),
    integer('media-top-margin-supported', MARGIN),
  ];
}

/**
 * Margins in hundredths of a mm: labels print to the edge, but 0 makes CUPS name every size `.Borderless` and then
 * find no default among them (its driverless PPD gets no default page size); 0.01 mm, as LPrint reports, avoids it.
 */
const MARGIN = 1;

function sizeMembers(m: Medium): IppAttribute[] {
  return [integer('x-dimension', m.width), integer('y-dimension', m.length)];
}

function mediaCol(m: Medium, source: string, type: string): IppAttribute[] {
  return [
    collection('media-size', sizeMembers(m)),
    integer('media-bottom-margin', MARGIN),
    integer('media-left-margin', MARGIN),
    integer('media-right-margin', MARGIN),
    integer('media-top-margin', MARGIN),
    keyword('media-source', source),
    keyword('media-type', type),
  ];
}

function rasterAttributes(f: PrinterFacts): IppAttribute[] {
  const dpi = f.printer.dpi ?? 203;
  return [
    resolution('pwg-raster-document-resolution-supported', { x: dpi, y: dpi, units: DPI_UNITS }),
    keyword('pwg-raster-document-sheet-back', 'normal'),
    keyword('pwg-raster-document-type-supported', 'black_1', 'sgray_8'),
    keyword('urf-supported', 'V1.4', 'CP1', 'W8', `RS${dpi}`),
  ];
}
