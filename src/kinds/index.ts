// The printer kinds this build knows, in the order they are asked; adding a kind is one folder and one line here.
import { AppError, DeviceError } from '../errors';
import { LANGUAGES, languageOfContent, type LanguageModule } from '../languages';
import type { Connection, ContentKind, PrinterRecord } from '../schemas/printer';
import { ippKind } from './ipp';
import type { KindDeps, KindSession, PrinterKind } from './printer-kind';
import { UnsupportedDriver } from './unsupported-driver';
import { usbKind } from './usb';
import { tcpKind } from './tcp';

/** Every kind (transports only), first match wins. */
export const PRINTER_KINDS: readonly PrinterKind[] = [tcpKind, usbKind, ippKind];

/** The kind of a printer no kind matches: its jobs fail with a clear error. */
const UNKNOWN_KIND: PrinterKind = {
  name: 'unknown',
  transport: 'tcp',
  matches: () => true,
  start: () => ({
    discovery: [],
    openDriver: (printer) => new UnsupportedDriver(printer, `no printer kind of this build handles ${printer.connection.protocol ?? printer.connection.type} printers`),
    stop: async () => undefined,
  }),
  testDocument: (printer) => Promise.reject(new DeviceError('UNSUPPORTED_CONTENT', `no test print exists for ${printer.path}`)),
  interruptedJobs: () => 'fail',
};

/** The kind that drives `printer`; a fallback whose jobs fail clearly when none does. */
export function kindOf(printer: { connection: Connection; content: ContentKind }): PrinterKind {
  return PRINTER_KINDS.find((kind) => kind.matches(printer)) ?? UNKNOWN_KIND;
}

/** The language `printer` speaks: its kind's own (IPP: documents), else the one its `content` names. */
export function languageOf(printer: { connection: Connection; content: ContentKind }): LanguageModule {
  const fixed = kindOf(printer).language;
  return fixed ? LANGUAGES[fixed] : languageOfContent(printer.content);
}

/** The kind that addresses and probes a new manual printer at `connection`, or null when none does. */
export function kindServing(connection: Connection): PrinterKind | null {
  return PRINTER_KINDS.find((kind) => kind.serves?.(connection)) ?? null;
}

/** The resolution `printer` reports itself, by its kind. */
export function reportedDpi(printer: PrinterRecord | Omit<PrinterRecord, 'id' | 'tags' | 'discovered'>) {
  return kindOf(printer).reportedDpi?.(printer);
}

/** Every kind started (the fallback included), by kind name; stop each once with `stopKinds`. */
export function startKinds(deps: KindDeps): Map<string, KindSession> {
  return new Map([...PRINTER_KINDS, UNKNOWN_KIND].map((kind) => [kind.name, kind.start(deps)]));
}

/** Stops started kinds in reverse order of start. */
export async function stopKinds(sessions: Map<string, KindSession>): Promise<void> {
  for (const session of [...sessions.values()].reverse()) await session.stop();
}

export type { KindDeps, KindHardware, KindSession, PrinterKind, TestDocument, TestPrintInfo } from './printer-kind';

/** The printer path a URI form names (`tcp://`, `socket://`, `ipp://`…), by the kind whose scheme it is; null when not a URI. */
export function pathFromUri(value: string): string | null {
  for (const kind of PRINTER_KINDS) {
    const path = kind.pathFromUri?.(value) ?? null;
    if (path) return path;
  }
  return null;
}

/** A manual printer's connection checked and completed by its kind, and its path; throws AppError INVALID_REQUEST. */
export function locateManual(connection: Connection): { connection: Connection; path: string } {
  const kind = kindServing(connection);
  if (!kind?.locate || !kind.pathOf) throw new AppError('INVALID_REQUEST', `connection.protocol ${connection.protocol ?? ''} cannot be added by hand`);
  const located = kind.locate(connection);
  return { connection: located, path: kind.pathOf(located) };
}
