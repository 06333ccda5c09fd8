// The raw ports of every shared printer: opened, moved and closed as printers' `share.rawPort` settings change.
import type { PrinterLanguage } from '../filters/filters';
import type { Logger } from '../log';
import type { PrinterRecord } from '../schemas/printer';
import { ConnectionGate, type GateLimits } from '../util/connection-gate';
import type { MemoryBudget } from '../util/memory-budget';
import type { HostQuery } from './host-queries';
import { RawPort } from './raw-port';
import { submitWhenRoom } from './submit-when-room';

/** How long the job of a connection a port took waits for room in a full spooler before it is dropped, in ms. */
export const RAW_JOB_WAIT_MS = 60_000;

/** Connections one raw port holds at once: in all, and from one source address (a shop's PCs each keep one or two open). */
export const RAW_PORT_LIMITS: GateLimits = { total: 64, perAddress: 16 };

/** What the raw ports need of the daemon. */
export interface RawPortsDeps {
  host: string;
  /** The printer at `path` now, or null once it is gone. */
  findPrinter: (path: string) => PrinterRecord | null;
  languageOf: (printer: PrinterRecord) => PrinterLanguage;
  /** Submits one connection's bytes as a job to `printer` (wait: false). */
  submit: (printer: PrinterRecord, data: Buffer, title: string, from: string) => Promise<void>;
  /** A host query to the printer at `path`, through its device lock. */
  ask: (path: string, query: HostQuery) => Promise<Buffer | null>;
  maxBytes: () => number;
  /** The device's one allowance of client bytes in memory (shared with HTTP bodies and IPP documents). */
  budget: MemoryBudget;
  /** The count every keyless door shares (raw ports and IPP requests), sized to the descriptors the API must keep. */
  doors: ConnectionGate;
  /** False while the spooler cannot take another job (spool bytes or job count at their limit). */
  acceptsJobs: () => boolean;
  idleMs: number;
  /** Called once a connection that held more than 1 MiB has let go of its bytes (a collection gives their memory back). */
  afterLarge: () => void;
  /** Records a port that could not be opened (GET /status warnings). */
  warn: (line: string) => void;
  logger: Logger;
}

/** Keeps one RawPort per printer that has a raw port. */
export class RawPorts {
  private readonly open = new Map<string, { port: number; listener: RawPort }>();
  private syncing = Promise.resolve();
  /** Aborted at close: jobs still waiting for room in the spooler give up. */
  private readonly closing = new AbortController();

  constructor(private readonly deps: RawPortsDeps) {}

  /** Brings the listeners in line with `printers` (changes are applied one after another). */
  sync(printers: readonly PrinterRecord[]): Promise<void> {
    this.syncing = this.syncing.then(() => this.apply(printers));
    return this.syncing;
  }

  /** Closes every raw port. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.syncing;
    await Promise.all([...this.open.values()].map((o) => o.listener.close()));
    this.open.clear();
  }

  private async apply(printers: readonly PrinterRecord[]): Promise<void> {
    const wanted = new Map(printers.filter((p) => p.share?.rawPort).map((p) => [p.path, p.share!.rawPort!]));
    for (const [path, open] of this.open) {
      if (wanted.get(path) === open.port) continue;
      this.open.delete(path);
      await open.listener.close();
    }
    for (const [path, port] of wanted) {
      if (this.open.has(path)) continue;
      const listener = this.listener(path, port);
      try {
        await listener.listen(this.deps.host, port);
        this.open.set(path, { port, listener });
      } catch (err) {
        this.deps.warn(`raw port ${port} of ${path} cannot be opened: ${(err as Error).message}`);
      }
    }
  }

  private listener(path: string, port: number): RawPort {
    const printer = () => this.deps.findPrinter(path);
    return new RawPort({
      submit: (data, from) =>
        submitWhenRoom(async () => {
          const current = printer();
          if (current) await this.deps.submit(current, data, `Raw port ${port}`, from);
        }, RAW_JOB_WAIT_MS, this.closing.signal),
      answersQueries: () => {
        const current = printer();
        return current !== null && this.deps.languageOf(current) === 'zpl';
      },
      ask: (query) => this.deps.ask(path, query),
      maxBytes: this.deps.maxBytes,
      budget: this.deps.budget,
      gate: new ConnectionGate(RAW_PORT_LIMITS),
      doors: this.deps.doors,
      acceptsJobs: this.deps.acceptsJobs,
      idleMs: this.deps.idleMs,
      afterLarge: this.deps.afterLarge,
      logger: this.deps.logger,
    });
  }
}
