// The printer registry: manual printers (persisted), discovered ones (from sources), tags and overrides by path.
import { AppError } from '../errors';
import type { Logger } from '../log';
import type { DiscoveryEvent, DiscoverySource } from '../discovery/source';
import { NOT_SHARED, type Connection, type ContentKind, type CreatePrinterBody, type DiscoveredPrinter, type Dpi, type PatchPrinterBody, type PrinterRecord } from '../schemas/printer';
import type { ManualPrinter } from '../schemas/settings';
import { applyChange } from '../settings/apply-change';
import type { SettingsStore } from '../settings/settings-store';
import { printerId } from '../kinds/printer-path';

/** Collaborators of the registry. */
export interface RegistryDeps {
  settings: SettingsStore;
  sources: DiscoverySource[];
  /** A new manual printer's connection checked and completed, and its path (its kind's); throws INVALID_REQUEST when wrong or no kind serves it. */
  locate: (connection: Connection) => { connection: Connection; path: string };
  /** The printer path a URI form names (its kind's), or null when the value is no URI. */
  pathFromUri: (value: string) => string | null;
  /** Decides `content` for a new manual printer when the request leaves it out (its kind's probe). */
  probeContent: (connection: Connection) => Promise<ContentKind>;
  /** The resolution a printer reports itself (its kind's), when it does. */
  reportedDpi: (printer: DiscoveredPrinter) => Dpi | undefined;
  logger: Logger;
}

/** Result of a discovery run: what is known now and the sources that failed. */
export interface DiscoveryReport {
  printers: PrinterRecord[];
  warnings: string[];
}

const TAG_PREFIX = 'tag_';

/** Holds every known printer; resolves targets (path, URI, `tag_` alias) to printers. */
export class PrinterRegistry {
  private readonly discovered = new Map<string, DiscoveredPrinter>();
  /** What printers told about themselves (IPP capabilities), by path; kept in memory, refreshed by status probes. */
  private readonly details = new Map<string, Pick<DiscoveredPrinter, 'capabilities' | 'supportedFormats'>>();
  /** The last computed list, valid while the settings object and the discovered set are unchanged. */
  private cache: { settings: object; version: number; list: PrinterRecord[] } | null = null;
  private version = 0;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: RegistryDeps) {}

  /** Calls `listener` after each change of discovered printers or what printers reported (settings changes come from the store); returns its removal. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }

  /** Every printer: manual ones first (in insertion order), then discovered ones not shadowed by a manual path. */
  list(): PrinterRecord[] {
    const settings = this.deps.settings.value;
    if (this.cache?.settings !== settings || this.cache.version !== this.version) {
      this.cache = { settings, version: this.version, list: this.compute() };
    }
    return this.cache.list;
  }

  private compute(): PrinterRecord[] {
    const manual = this.deps.settings.value.printers.map((p) => this.record({ ...p }, false, p));
    const manualPaths = new Set(manual.map((p) => p.path));
    const found = [...this.discovered.values()].filter((p) => !manualPaths.has(p.path)).map((p) => this.record(p, true, { tags: [] }));
    return [...manual, ...found];
  }

  /** The printer at a path or URI form, or null. */
  find(pathOrUri: string): PrinterRecord | null {
    const path = this.deps.pathFromUri(pathOrUri) ?? pathOrUri;
    return this.list().find((p) => p.path === path) ?? null;
  }

  /** The printer at a path or URI form; throws PRINTER_NOT_FOUND naming it. */
  get(pathOrUri: string): PrinterRecord {
    const printer = this.find(pathOrUri);
    if (!printer) throw new AppError('PRINTER_NOT_FOUND', `No printer at path: ${pathOrUri}`);
    return printer;
  }

  /** Printers a print target names: one for a path/URI, every tagged one for `tag_NAME`; throws 404 when none. */
  resolveTarget(target: string): PrinterRecord[] {
    if (!target.toLowerCase().startsWith(TAG_PREFIX)) return [this.get(target)];
    const name = target.slice(TAG_PREFIX.length);
    const wanted = name.toLowerCase();
    const matches = this.list().filter((p) => p.tags.some((t) => t.toLowerCase() === wanted));
    if (matches.length === 0) throw new AppError('PRINTER_NOT_FOUND', `No printer with tag: ${name}`);
    return matches;
  }

  /** Adds a manual printer (content probed when absent); throws PRINTER_EXISTS for a known path. */
  async add(body: CreatePrinterBody): Promise<PrinterRecord> {
    const { connection, path } = this.deps.locate(body.connection);
    if (this.deps.settings.value.printers.some((p) => p.path === path)) {
      throw new AppError('PRINTER_EXISTS', `A printer already exists at path: ${path}`);
    }
    const content = body.content ?? (await this.deps.probeContent(connection));
    const tags = dedupeTags(body.tags ?? []);
    await this.deps.settings.update((s) => {
      if (s.printers.some((p) => p.path === path)) throw new AppError('PRINTER_EXISTS', `A printer already exists at path: ${path}`);
      s.printers.push({ path, connection, content, tags, ...(body.model ? { model: body.model } : {}) });
    });
    return this.get(path);
  }

  /**
   * Changes tags, model, content, dpi, dither, paperWidth or share of a printer (null forgets dpi/dither/paperWidth);
   * discovered printers keep them as an override by path. A raw port another printer shares is a 400.
   */
  async patch(pathOrUri: string, body: PatchPrinterBody): Promise<PrinterRecord> {
    const printer = this.get(pathOrUri);
    const rawPort = body.share?.rawPort;
    const holder = rawPort ? this.list().find((p) => p.path !== printer.path && p.share?.rawPort === rawPort) : undefined;
    if (holder) throw new AppError('INVALID_REQUEST', `share.rawPort ${rawPort} is already the raw port of printer ${holder.path}`);
    const change = { ...body, ...(body.tags ? { tags: dedupeTags(body.tags) } : {}) };
    await this.deps.settings.update((s) => {
      const manual = s.printers.find((p) => p.path === printer.path);
      applyChange(manual ?? (s.printerOverrides[printer.path] ??= {}), change);
    });
    return this.get(printer.path);
  }

  /** Removes a manual printer, or forgets the overrides of a discovered one. */
  async remove(pathOrUri: string): Promise<PrinterRecord> {
    const printer = this.get(pathOrUri);
    await this.deps.settings.update((s) => {
      s.printers = s.printers.filter((p) => p.path !== printer.path);
      delete s.printerOverrides[printer.path];
    });
    if (printer.discovered && this.discovered.delete(printer.path)) this.changed();
    return printer;
  }

  /** Runs every discovery source (or those `which` picks); a failing source becomes a warning, the others still count. */
  async discover(which: (source: DiscoverySource) => boolean = () => true): Promise<DiscoveryReport> {
    const warnings: string[] = [];
    const sources = this.deps.sources.filter(which);
    const results = await Promise.allSettled(sources.map((s) => s.scan()));
    results.forEach((result, i) => {
      const source = sources[i];
      if (result.status === 'rejected') {
        warnings.push(`${source.name} discovery failed: ${(result.reason as Error)?.message ?? String(result.reason)}`);
        return;
      }
      this.replaceFromSource(source.name, result.value);
    });
    return { printers: this.list(), warnings };
  }

  /** Records what a printer reported about itself (capabilities, formats); shown on its record. */
  setDetails(path: string, details: Pick<DiscoveredPrinter, 'capabilities' | 'supportedFormats'>): void {
    this.details.set(path, details);
    this.changed();
  }

  /** Applies a hotplug/browse event from a source. */
  apply(source: string, event: DiscoveryEvent): void {
    if (event.kind === 'attached') this.discovered.set(event.printer.path, { ...event.printer, locator: { ...event.printer.locator, source } });
    else this.discovered.delete(event.path);
    this.changed();
  }

  private replaceFromSource(source: string, printers: DiscoveredPrinter[]): void {
    for (const [path, printer] of this.discovered) {
      if (printer.locator?.source === source) this.discovered.delete(path);
    }
    this.changed();
    for (const printer of printers) this.apply(source, { kind: 'attached', printer });
  }

  /** `own`: what a manual printer stores itself (tags, dpi, dither); a discovered printer's come from its override. */
  private record(printer: DiscoveredPrinter, discovered: boolean, own: Pick<ManualPrinter, 'tags' | 'dpi' | 'dither' | 'paperWidth' | 'share'>): PrinterRecord {
    const override = this.deps.settings.value.printerOverrides[printer.path] ?? {};
    const dpi = override.dpi ?? own.dpi ?? this.deps.reportedDpi(printer);
    const dither = override.dither ?? own.dither;
    const paperWidth = override.paperWidth ?? own.paperWidth;
    return {
      ...printer,
      ...this.details.get(printer.path),
      ...(override.model ? { model: override.model } : {}),
      content: override.content ?? printer.content,
      id: printerId(printer.path),
      tags: override.tags ?? own.tags,
      discovered,
      ...(dpi !== undefined ? { dpi } : {}),
      ...(dither !== undefined ? { dither } : {}),
      ...(paperWidth !== undefined ? { paperWidth } : {}),
      share: override.share ?? own.share ?? NOT_SHARED,
    };
  }
}

function dedupeTags(tags: string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((t) => {
    const key = t.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
