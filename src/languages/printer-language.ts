// What a printer language is (PAPPL's drivers): everything true of it on any transport, one module per folder in languages/.
import type { PageEncoderFactory } from '../encoders/page-encoder';
import type { DeclaredFormat, DocumentFormat } from '../schemas/document-format';
import type { ContentKind, LiveStatus, PrinterRecord } from '../schemas/printer';
import type { PreflightOutcome } from '../schemas/readiness';
import type { Transport } from '../transports/transport';
import type { DeviceId } from '../usb/ieee1284';
import type { LANGUAGES } from './index';

/** The languages of this build (each a folder of src/languages and a line of its table). */
export type LanguageName = keyof typeof LANGUAGES;

/** The transports of this build (each a folder of src/kinds and a line of its table). */
export type TransportName = 'tcp' | 'usb' | 'ipp';

/** What a test print shows (seed 4.6). */
export interface TestPrintInfo {
  deviceId: string;
  printerPath: string;
  printedAt: Date;
}

/** A test print as an inline document. */
export interface TestDocument {
  title: string;
  data: Buffer;
  format: DocumentFormat;
  /** The seed contentType the job record shows. */
  contentType: string;
}

/** A sent job interrupted by a restart: sent again (a duplicate label beats a lost shipment) or failed (a printer that may have printed it). */
export type InterruptedJobRule = 'resend' | 'fail';

/** How rendered pages become this language: its encoder at a resolution, and the page geometry the raster follows. */
export interface PageOutput {
  /** The encoder of rendered pages for a printer of `dpi` dots per inch whose record names `model` (a language with several protocols picks by it). */
  encoderFor(dpi: number, model?: string): PageEncoderFactory;
  /** `label`: pages sized by the document or `paperSize`; `receipt`: fitted to the roll's printable width. */
  geometry: 'label' | 'receipt';
}

/** Status of a printer of this language over any byte-stream Transport (TCP 9100, USB bulk). */
export interface DeviceQueries {
  /** Seed 4.5.1 pre-flight within `timeoutMs` per query; `recover` allows the language's reset-and-retry of a silent printer. Absent: no pre-flight (rule 3). */
  preflight?(transport: Transport, timeoutMs: number, recover: boolean): Promise<PreflightOutcome>;
  /** Live status: online, error with IPP reasons, `unknown` when silent, `offline` when unreachable. */
  liveStatus(transport: Transport, timeoutMs: number): Promise<LiveStatus>;
  /** Label formats accepted but not printed yet, or null when the printer cannot tell. */
  unprinted?(transport: Transport, timeoutMs: number): Promise<number | null>;
  /** True when the status query is also sent on a network socket; false when only a 1284 id (USB) vouches for the language. */
  overNetwork: boolean;
  /** True when the printer takes host status queries (ZPL `~HS`) that raw-port clients send, through its device lock. */
  hostQueries: boolean;
}

/** The USB ids a device's language is told by: its vendor and product. */
export interface UsbDeviceIds {
  vendorId: number;
  productId: number;
}

/** How a USB printer is recognised as speaking a language. */
export interface UsbRecognition {
  /** True when the printer's IEEE 1284 id (`CMD:`, `MDL:`, `MFG:`) or its vendor/product ids say it speaks the language. */
  matches(id: DeviceId, device: UsbDeviceIds): boolean;
}

/** A host query found in a raw port's stream: the command forwarded to the printer and when its reply is whole. */
export interface HostQuery {
  command: Buffer;
  complete: (reply: Buffer) => boolean;
}

/** How a language's host queries (ZPL `~HS`…) are found in, and taken out of, a raw port's stream. */
export interface HostQuerySyntax {
  /** Global pattern whose matches are whole queries. */
  find: RegExp;
  /** The query a text matched by `find` is. */
  queryOf(matched: string): HostQuery;
  /** Global pattern of a query with the blanks and line end after it, as taken out of a job's bytes. */
  strip: RegExp;
  /** What every query starts with (any case): a job without it holds none. */
  prefix: string;
  /** A query split across two reads ends in at most this many bytes of the first. */
  tail: number;
}

/** One printer language: pass-through, rendering, IPP sharing facts, device queries and its test document. */
export interface LanguageModule {
  readonly name: LanguageName;
  /** The printer record's `content` of printers speaking it. */
  readonly content: ContentKind;
  /** The language's name as people read it (`ZPL`, `ESC/POS`, `PDF`). */
  readonly displayName: string;
  /** The resolution a printer of this language is taken to have when it reports none; null: it renders documents itself. */
  readonly defaultDpi: number | null;
  /** Order among languages that match one device, lowest first (ZPL before TSPL; the fallback last). */
  readonly rank: number;
  /** True for the one language of a byte printer no language recognises (ESC/POS: content `raw`). */
  readonly fallback?: boolean;
  /** How a USB printer is recognised as speaking it; absent: never from USB ids alone. */
  readonly usb?: UsbRecognition;
  /** True when a new raw TCP printer at `transport` answers as this language within `timeoutMs` (ZPL: `~HS`). */
  probe?(transport: Transport, timeoutMs: number): Promise<boolean>;
  /** Label formats in this language's own bytes (ZPL `^XA`), for following them through the printer's buffer. */
  countFormats?(bytes: Uint8Array): number;
  /** Host queries raw-port clients send in this language's streams (ZPL `~HS`, `~HQES`, `~HI`). */
  readonly rawPortQueries?: HostQuerySyntax;
  /** The transports a printer of this language is reached over. */
  readonly transports: readonly TransportName[];
  /** MIME type of bytes passed through to the printer (PreparedDocument.mimeType) when the format has none of its own. */
  readonly passThroughMimeType: string;
  /** The document format of this language's own bytes (`zpl`, else `raw`): what a raw port's bytes are submitted as. */
  readonly nativeFormat: DocumentFormat;
  /** True when bytes in `nativeFormat` are sent `copies` times over (ZPL); other pass-throughs are sent once. */
  readonly nativeRepeatsCopies: boolean;
  /** How rendered documents become this language; null for printers that take documents themselves. */
  readonly pages: PageOutput | null;
  /** IPP sharing: document-format-supported (default first), the spooler format of each own MIME type, media and texts. */
  readonly ipp: {
    formats(printer: PrinterRecord): string[];
    declared: Readonly<Record<string, DeclaredFormat>>;
    /** PWG 5101.1 media names offered, default first. */
    media(printer: PrinterRecord): string[];
    mediaType: string;
    mediaSource: string;
    supplyDescription: string;
    /** The words after the maker in printer-make-and-model (`ZPL label printer`). */
    modelText: string;
    /** The CMD word of printer-device-id. */
    commandSet: string;
    /** The DNS-SD `kind` TXT value. */
    dnsSdKind: string;
  };
  /** Status over byte-stream transports; null when the printer is never asked (documents). */
  readonly device: DeviceQueries | null;
  /** The test print of `printer`. */
  testDocument(printer: PrinterRecord, info: TestPrintInfo): Promise<TestDocument>;
  /** What a raw port does with ZPL host queries (`~HS`…) in a client's stream: answers them from the printer and takes them out, takes them out, or keeps them as this language's own text. */
  readonly rawPortHostQueries: 'answer' | 'remove' | 'keep';
  /** What recovery does with a job whose sending a restart interrupted. */
  readonly interruptedJobs: InterruptedJobRule;
}
