// Who reads a printer's status, and when: through the device lock between jobs; over the driver's control channel
// (USB control requests, IPP requests) while a job holds the device — never the job's data path beside the job.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { DeliveryResult, PreflightOutcome, PreparedDocument, PrinterDriver } from '../../src/kinds/printer-driver';
import type { PrinterRecord } from '../../src/schemas/printer';
import { spoolerHarness } from '../helpers/spooler-harness';
import { tempDir } from '../helpers/temp-dir';

const printer: PrinterRecord = { path: 'usb_sn_A', id: 'AAAAAAAA', tags: [], discovered: false, content: 'zpl', connection: { type: 'usb' } };

/** A driver whose delivery waits for `release`, recording which channel each status read used. */
class ChannelDriver implements PrinterDriver {
  readonly reads: string[] = [];
  private released!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.released = resolve));
  private begun!: () => void;
  readonly delivering = new Promise<void>((resolve) => (this.begun = resolve));
  release(): void {
    this.released();
  }
  async preflight(): Promise<PreflightOutcome> {
    return { kind: 'ready' };
  }
  async deliver(doc: PreparedDocument): Promise<DeliveryResult> {
    this.begun();
    await this.gate;
    return { bytes: doc.bytes.length };
  }
  async status() {
    this.reads.push('device');
    return { status: 'online' as const, statusReasons: [] };
  }
  async controlStatus() {
    this.reads.push('control');
    return { status: 'online' as const, statusReasons: [] };
  }
}

test('status goes through the device lock between jobs, and over the control channel while a job is being sent', async () => {
  const driver = new ChannelDriver();
  const { spooler, runtimes } = await spoolerHarness({ spoolDir: tempDir('runtime-status'), findPrinter: () => printer, openDriver: () => driver });
  await runtimes.of(printer.path).status();
  assert.deepEqual(driver.reads, ['device'], 'idle: the device is free, its status is read through the lock');
  const submitted = spooler.submit({ document: { source: { kind: 'inline' }, format: 'zpl', contentType: 'zpl' }, data: Buffer.from('^XA^XZ'), title: 't', source: null, wait: true, options: {}, idempotencyKey: null }, [printer], printer.path);
  await driver.delivering;
  const during = runtimes.of(printer.path).status();
  driver.release();
  await Promise.all([during, submitted]);
  assert.deepEqual(driver.reads, ['device', 'control'], 'during the job: the control channel, not the job\'s data path');
});
