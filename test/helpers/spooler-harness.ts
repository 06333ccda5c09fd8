// A spooler over printer runtimes with drivers the test provides, no renderer, and a short hold retry.
import { join } from 'node:path';
import { EventBus } from '../../src/events/event-bus';
import { createFilters } from '../../src/filters/filters';
import type { PrinterDriver } from '../../src/kinds/printer-driver';
import { silentLogger } from '../../src/log';
import { PrinterRuntimes } from '../../src/printers/printer-runtimes';
import type { PrinterRecord } from '../../src/schemas/printer';
import { DiskSpool } from '../../src/spooler/disk-spool';
import { JobStore } from '../../src/spooler/job-store';
import { KeyJournal } from '../../src/spooler/key-journal';
import { Spooler } from '../../src/spooler/spooler';

/** What the harness is built from: the printers, their drivers, the spool folder, the restart rule, the clock. */
export interface HarnessOptions {
  spoolDir: string;
  findPrinter: (path: string) => PrinterRecord | null;
  openDriver: (printer: PrinterRecord) => PrinterDriver;
  interrupted?: 'resend' | 'fail';
  /** Most unfinished jobs at once (default 1000). */
  maxUnfinished?: number;
  /** Byte limit of the disk spool (default none). */
  maxSpoolBytes?: number;
  now?: () => number;
}

/** A spooler, its job store and its event bus; its idempotency keys are kept in the spool folder. */
export async function spoolerHarness(options: HarnessOptions): Promise<{ spooler: Spooler; store: JobStore; bus: EventBus; runtimes: PrinterRuntimes }> {
  const now = options.now ?? Date.now;
  const bus = new EventBus(silentLogger);
  const runtimes = new PrinterRuntimes({
    findPrinter: options.findPrinter,
    openDriver: options.openDriver,
    languageOf: (p) => (p.content === 'pdf' ? 'document' : p.content === 'zpl' ? 'zpl' : 'escpos'),
    prepare: createFilters(null),
    bus,
    logger: silentLogger,
    holdRetryMs: 10,
    maxHoldMs: 60_000,
    now,
    printed: { pollMs: 10, maxFollowMs: 60_000 },
  });
  const store = new JobStore({ retentionMs: 3_600_000, maxRecords: 10_000 });
  const keys = await KeyJournal.open(join(options.spoolDir, 'keys.log'), { lifetimeMs: 3_600_000, maxKeys: 10_000, now }, silentLogger);
  const spooler = new Spooler({
    store,
    keys,
    spool: new DiskSpool(options.spoolDir, options.maxSpoolBytes),
    runtimes,
    findPrinter: options.findPrinter,
    kindOf: () => ({ interruptedJobs: () => options.interrupted ?? 'fail' }),
    loadDocument: async (_spec, data) => data!,
    logger: silentLogger,
    maxUnfinished: options.maxUnfinished ?? 1000,
    now,
  });
  return { spooler, store, bus, runtimes };
}
