// The disk spool has a byte limit of its own (issue 26): a `wait: false` job that would take it past the limit is refused
// SPOOL_FULL (507) before any record is made, room comes back as jobs print, and a restart counts what is left on disk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../src/errors';
import { httpErrorOf } from '../../src/http/error-status';
import type { DeliveryResult, PreflightOutcome, PreparedDocument, PrinterDriver } from '../../src/kinds/printer-driver';
import type { PrinterRecord } from '../../src/schemas/printer';
import { DiskSpool } from '../../src/spooler/disk-spool';
import { MAX_SPOOL_BYTES, spoolLimit } from '../../src/spooler/spool-limit';
import { statfsSync } from 'node:fs';
import type { Submission } from '../../src/spooler/submission';
import { spoolerHarness } from '../helpers/spooler-harness';
import { tempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';

/** A printer that takes jobs only once `open()` was called. */
class GatedDriver implements PrinterDriver {
  delivered = 0;
  private opened!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.opened = resolve));
  open(): void {
    this.opened();
  }
  async preflight(): Promise<PreflightOutcome> {
    return { kind: 'ready' };
  }
  async deliver(doc: PreparedDocument): Promise<DeliveryResult> {
    await this.gate;
    this.delivered += 1;
    return { bytes: doc.bytes.length };
  }
  async status() {
    return { status: 'online' as const, statusReasons: [] };
  }
}

const printer: PrinterRecord = { path: 'a', id: 'AAAAAAAA', tags: [], discovered: false, content: 'zpl', connection: { type: 'network', host: 'h', port: 9100, protocol: 'tcp' } };

function job(bytes: number, wait = false): Submission {
  return { document: { source: { kind: 'inline' }, format: 'zpl', contentType: 'zpl' }, data: Buffer.alloc(bytes, 0x41), title: 't', source: null, wait, options: {}, idempotencyKey: null };
}

test('a wait: false job past the spool\'s byte limit is refused SPOOL_FULL (507) with no record; room comes back as jobs print', async () => {
  const driver = new GatedDriver();
  const { spooler, store } = await spoolerHarness({ spoolDir: tempDir('spool-limit'), findPrinter: () => printer, openDriver: () => driver, maxSpoolBytes: 5000 });
  await spooler.submit(job(1500), [printer], 'a');
  await spooler.submit(job(1500), [printer], 'a');
  const records = store.unfinished();
  await assert.rejects(spooler.submit(job(1500), [printer], 'a'), (err: unknown) => err instanceof AppError && err.code === 'SPOOL_FULL');
  assert.equal(store.unfinished(), records, 'no record made for the refused job');
  assert.equal(httpErrorOf(new AppError('SPOOL_FULL', 'x')).status, 507);

  driver.open();
  await until('both spooled jobs printed', () => driver.delivered === 2 && store.unfinished() === 0);
  await until('the spool has room again', async () => {
    try {
      await spooler.submit(job(1500), [printer], 'a');
      return true;
    } catch {
      return false;
    }
  });
  await until('that one printed too', () => driver.delivered === 3);
  await spooler.close(1000);
});

test('wait: true jobs are not spooled and not held to its limit', async () => {
  const driver = new GatedDriver();
  driver.open();
  const { spooler } = await spoolerHarness({ spoolDir: tempDir('spool-limit'), findPrinter: () => printer, openDriver: () => driver, maxSpoolBytes: 100 });
  const outcome = await spooler.submit(job(1500, true), [printer], 'a');
  assert.equal(outcome.jobs[0].state, 'completed');
  await spooler.close(1000);
});

test('a spool read back at start counts the jobs it holds against its limit', async () => {
  const dir = tempDir('spool-limit');
  const first = new DiskSpool(dir, 10_000);
  const entry = (jobId: string, seq: number) => ({ seq, job: { jobId } as never, document: { source: { kind: 'inline' as const }, format: 'zpl' as const, contentType: 'zpl' }, options: {} });
  await first.put(entry('pj_1', 1), Buffer.alloc(4000));
  await first.put(entry('pj_2', 2), Buffer.alloc(4000));
  await assert.rejects(first.put(entry('pj_3', 3), Buffer.alloc(4000)), (err: unknown) => err instanceof AppError && err.code === 'SPOOL_FULL');
  const again = new DiskSpool(dir, 10_000);
  assert.equal(again.load(() => undefined).length, 2);
  assert.ok(again.usedBytes() > 8000, `counted ${again.usedBytes()} bytes`);
  assert.equal(again.hasRoom(4000), false);
  await again.remove('pj_1');
  assert.equal(again.hasRoom(4000), true);
});

test('the default limit: half the free space at start, at most 256 MiB', () => {
  const dir = tempDir('spool-limit');
  const free = (() => {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize;
  })();
  const limit = spoolLimit(dir);
  assert.ok(limit <= MAX_SPOOL_BYTES, `${limit}`);
  assert.ok(limit >= Math.min(MAX_SPOOL_BYTES, Math.floor(free / 2) - 1024 * 1024), `${limit} against ${free} free`);
});
