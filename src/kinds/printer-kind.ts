// What a printer kind is (PAPPL's device schemes, zigbee-herdsman's adapters): one module per kind, listed in kinds/index.ts.
import type { DiscoverySource } from '../discovery/source';
import type { InterruptedJobRule, LanguageModule, LanguageName, TestDocument, TestPrintInfo, TransportName } from '../languages';
import type { Logger } from '../log';
import type { Connection, ContentKind, Dpi, PrinterRecord } from '../schemas/printer';
import type { TransportTimeouts } from '../transports/transport';
import type { UsbBackend } from '../usb/usb-backend';
import type { PrinterDriver } from './printer-driver';

/** The device's hardware a kind may open when it starts. */
export interface KindHardware {
  /** Opens the USB bus, logging to `logger`; may throw when libusb cannot load. */
  usb: (logger: Logger) => UsbBackend;
}

/** What every kind may use: transport limits, mDNS permission, the printers known, the logger, the hardware, and where a part that cannot start is reported. */
export interface KindDeps {
  timeouts: TransportTimeouts;
  /** mDNS browsing is allowed (off with --no-mdns). */
  mdns: boolean;
  /** The record of the printer at `path` (manual or discovered), or null: discovery never probes a printer that has one. */
  printerAt: (path: string) => PrinterRecord | null;
  logger: Logger;
  hardware: KindHardware;
  /** Records what could not start (GET /status warnings); the daemon keeps serving. */
  warn: (line: string) => void;
}

/** A kind started for the daemon's life: what it owns (a USB bus and its interface claims) until `stop`. */
export interface KindSession {
  /** The discovery sources this kind contributes. */
  discovery: DiscoverySource[];
  /** Opens the driver of `printer` speaking `language`; the printer runtime keeps it while the printer's record is unchanged. */
  openDriver(printer: PrinterRecord, language: LanguageModule): PrinterDriver;
  /** Gives back what the kind holds (USB printers go back to their kernel driver). */
  stop(): Promise<void>;
}

/** One kind of printer: how it is recognised, addressed, discovered, driven and tested. */
export interface PrinterKind {
  /** Short name for logs (`tcp`, `usb`, `ipp`). */
  readonly name: string;
  /** The transport it is, as languages name the transports they run on. */
  readonly transport: TransportName;
  /** True when this kind drives a printer with this connection and content. */
  matches(printer: { connection: Connection; content: ContentKind }): boolean;
  /** True when a manual printer at `connection` (content not yet known) is this kind's to address and probe. */
  serves?(connection: Connection): boolean;
  /** The path of a printer at `connection` (its port defaulted when absent). */
  pathOf?(connection: Connection): string;
  /** A manual printer's connection checked (host) and completed (default port); throws AppError INVALID_REQUEST. */
  locate?(connection: Connection): Connection;
  /** The printer path a URI form names (`tcp://…`, `ipp://…`) when it is one of this kind's schemes, else null. */
  pathFromUri?(value: string): string | null;
  /** Decides `content` for a manual printer added without one. */
  probeContent?(connection: Connection, deps: KindDeps): Promise<ContentKind>;
  /** The resolution the printer itself reports, when it does (a USB 1284 model string). */
  reportedDpi?(printer: Pick<PrinterRecord, 'model'>): Dpi | undefined;
  /** Starts the kind: what it opens and owns, its discovery, its drivers; once per daemon, stopped in reverse order. */
  start(deps: KindDeps): KindSession;
  /** The language of every printer of this kind (IPP: documents); absent: the printer's `content` decides. */
  readonly language?: LanguageName;
  /** Builds the test print of `printer`. */
  testDocument(printer: PrinterRecord, info: TestPrintInfo, deps: KindDeps): Promise<TestDocument>;
  /** True when an absent printer at `path` is this kind's and may come back (a USB printer plugged in again). */
  mayReturn?(path: string): boolean;
  /** What recovery does with a job to `printer` whose sending a restart interrupted. */
  interruptedJobs(printer: PrinterRecord): InterruptedJobRule;
}

export type { InterruptedJobRule, TestDocument, TestPrintInfo } from '../languages';
