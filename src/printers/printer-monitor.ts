// Background status probes while someone listens for printer.status (a WebSocket client or a webhook): each printer
// at most once per interval, never while a job's bytes are being sent to it; with no listener it probes nothing.
import type { Logger } from '../log';

/** How often the monitor looks at most (a quarter of the shortest interval a client may ask for): a probe is at most 0.5 s late. */
const TICK_MS = 500;

/** What the monitor needs: who wants status, which printers, how to probe one, and whether it is busy. */
export interface PrinterMonitorDeps {
  /** True while any channel wants printer.status events (read each tick). */
  wanted: () => boolean;
  /** Paths of the printers to watch. */
  printers: () => readonly string[];
  /** Reads a printer's status anew; a change goes out as printer.status through the status cache. */
  probe: (path: string) => Promise<unknown>;
  /** True while a job is being sent to the printer. */
  transferring: (path: string) => boolean;
  /** Shortest time between two probes of one printer now (read each tick). */
  intervalMs: () => number;
  /** Calls `tick` every `ms` until the returned function is called (setInterval, unref'd, by default). */
  every?: (ms: number, tick: () => void) => () => void;
  now?: () => number;
  logger: Logger;
}

/** Probes printers in the background while wanted; one probe per printer at a time. */
export class PrinterMonitor {
  private readonly lastProbe = new Map<string, number>();
  private readonly probing = new Set<string>();
  private stopTimer: (() => void) | null = null;
  private readonly now: () => number;

  constructor(private readonly deps: PrinterMonitorDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Starts ticking (a tick with nobody listening only reads one boolean). */
  start(): void {
    const every = this.deps.every ?? intervalTimer;
    // a default interval shorter than 2 s (a setting) is kept to within a quarter as well
    this.stopTimer ??= every(Math.min(TICK_MS, this.deps.intervalMs() / 4), () => this.tick());
  }

  /** Stops ticking; probes under way finish on their own. */
  stop(): void {
    this.stopTimer?.();
    this.stopTimer = null;
  }

  /** One round: probes each idle printer whose last probe is at least the interval old, when anyone listens. */
  tick(): void {
    if (!this.deps.wanted()) return;
    const now = this.now();
    const interval = this.deps.intervalMs();
    for (const path of this.deps.printers()) {
      if (this.probing.has(path) || this.deps.transferring(path)) continue;
      if (now - (this.lastProbe.get(path) ?? -Infinity) < interval) continue;
      this.lastProbe.set(path, now);
      this.probing.add(path);
      this.deps.probe(path).then(
        () => this.probing.delete(path),
        (err: unknown) => {
          this.probing.delete(path);
          this.deps.logger.debug('background status probe failed', { path, error: (err as Error).message });
        },
      );
    }
  }
}

function intervalTimer(ms: number, tick: () => void): () => void {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
}
