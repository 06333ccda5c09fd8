// The raw ports of every shared printer: opened, moved and closed as printers' `share.rawPort` settings change.
import { AppError } from '../errors';
import type { PrinterLanguage } from '../filters/filters';
import { LANGUAGES } from '../languages';
import type { Logger } from '../log';
import type { PrinterRecord } from '../schemas/printer';
import { ConnectionGate, type GateLimits } from '../util/connection-gate';
import type { MemoryBudget } from '../util/memory-budget';
import type { HostQuery } from './host-queries';
import { RawPort } from './raw-port';
import type { SpoolerLine } from './spooler-line';

/**
 * How long a raw-port job waits for room in a full spooler, its connection kept open, before it is given up (the
 * connection reset), in ms: a label tool blasting a batch at a printer waits as long as the printer takes them.
 */
export const RAW_JOB_WAIT_MS = 10 * 60_000;

/** How often the job at the head of the line is offered again while the spooler is full, in ms. */
export const RAW_JOB_RETRY_MS = 250;

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
  /** The line in which raw-port jobs wait, in order, for room in the spooler (its reclaim frees the doors' descriptors). */
  line: SpoolerLine;
  idleMs: number;
  /** Called with their number once a connection that held more than 1 MiB has let go of its bytes (a collection gives their memory back). */
  afterLarge: (bytes: number) => void;
  /** Records a port that could not be opened (GET /status warnings). */
  warn: (line: string) => void;
  logger: Logger;
}

/** Keeps one RawPort per printer that has a raw port. */
export class RawPorts {
  private readonly open = new Map<string, { port: number; listener: RawPort }>();
  private syncing = Promise.resolve();

  constructor(private readonly deps: RawPortsDeps) {}

  /** Brings the listeners in line with `printers` (changes are applied one after another). */
  sync(printers: readonly PrinterRecord[]): Promise<void> {
    this.syncing = this.syncing.then(() => this.apply(printers));
    return this.syncing;
  }

  /** Closes every raw port. */
  async close(): Promise<void> {
    this.deps.line.close();
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
      submit: (data, from, connection) =>
        this.deps.line.add({
          store: async () => {
            if (connection.dropped()) throw new AppError('TOO_BUSY', 'raw port closed');
            const current = printer();
            if (current) await this.deps.submit(current, data, `Raw port ${port}`, from);
          },
          reclaim: connection.reclaim,
        }),
      hostQueries: () => {
        const current = printer();
        return current === null ? 'remove' : LANGUAGES[this.deps.languageOf(current)].rawPortHostQueries;
      },
      ask: (query) => this.deps.ask(path, query),
      maxBytes: this.deps.maxBytes,
      budget: this.deps.budget,
      gate: new ConnectionGate(RAW_PORT_LIMITS),
      doors: this.deps.doors,
      idleMs: this.deps.idleMs,
      afterLarge: this.deps.afterLarge,
      logger: this.deps.logger,
    });
  }
}
