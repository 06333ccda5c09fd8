// The spooler and a printer that keeps its own jobs (IPP), with an in-memory driver: the printer's job-id as
// cupsJobId from acceptance, live reads on GET within 1 s, wait:true bounded by the printer's end, cancel at the printer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import type { DeliveryResult, PreflightOutcome, PrinterDriver, PrinterJobState } from '../../src/kinds/printer-driver';
import type { PrinterRecord } from '../../src/schemas/printer';
import type { Submission } from '../../src/spooler/submission';
import { tempDir } from '../helpers/temp-dir';
import { spoolerHarness } from '../helpers/spooler-harness';
import { until } from '../helpers/until';

/** A printer that accepts each job with job-id 41, 42, … and reports whatever `state` says (or never answers). */
class PrinterSideDriver implements PrinterDriver {
  nextId = 41;
  state: PrinterJobState = { state: 'printing', error: null };
  /** When set, jobState never settles (a printer that stopped answering). */
  silent = false;
  reads = 0;
  signals: AbortSignal[] = [];
  async preflight(): Promise<PreflightOutcome> {
    return { kind: 'ready' };
  }
  async deliver(doc: { bytes: Uint8Array }, signal: AbortSignal): Promise<DeliveryResult> {
    this.signals.push(signal);
    return { bytes: doc.bytes.length, printerJobId: String(this.nextId++), pending: true };
  }
  async status() {
    return { status: 'online' as const, statusReasons: [] };
  }
  jobState(): Promise<PrinterJobState> {
    this.reads += 1;
    return this.silent ? new Promise(() => undefined) : Promise.resolve({ ...this.state });
  }
}

const office: PrinterRecord = { path: 'office', id: 'OFFICE01', tags: [], discovered: false, content: 'pdf', connection: { type: 'network', host: 'h', port: 631, protocol: 'ipp' } };

async function setup(now?: () => number) {
  const driver = new PrinterSideDriver();
  const spoolDir = tempDir('ipp-spool');
  const { spooler } = await spoolerHarness({ spoolDir, findPrinter: (path) => (path === office.path ? office : null), openDriver: () => driver, now });
  return { spooler, driver, spoolDir };
}

function submission(wait: boolean): Submission {
  return { document: { source: { kind: 'inline' }, format: 'pdf', contentType: 'pdf_base64' }, data: Buffer.from('%PDF-1.4'), title: 'Report', source: null, wait, options: {}, idempotencyKey: null };
}

test('cupsJobId is the printer job-id from acceptance, and each GET reads the state live until the job ends', async () => {
  const { spooler, driver } = await setup();
  const { jobs } = await spooler.submit(submission(false), [office], 'office');
  const jobId = jobs[0].jobId;
  await until('the printer accepted the job as 41', async () => (await spooler.get(jobId))?.cupsJobId === '41');
  const reads = driver.reads;
  assert.equal((await spooler.get(jobId))?.state, 'printing');
  driver.state = { state: 'queued', error: null };
  assert.equal((await spooler.get(jobId))?.state, 'queued', 'the printer\'s own state, even pending');
  assert.equal(driver.reads, reads + 2, 'one Get-Job-Attributes per GET');
  driver.state = { state: 'completed', error: null };
  const done = await spooler.get(jobId);
  assert.equal(done?.state, 'completed');
  assert.notEqual(done?.completedAt, null);
  const after = driver.reads;
  await spooler.get(jobId);
  assert.equal(driver.reads, after, 'an ended job is not read again');
});

test('a printer that does not answer: GET answers the last known state within the 1 s budget; concurrent GETs share one read', async () => {
  const { spooler, driver } = await setup();
  const { jobs } = await spooler.submit(submission(false), [office], 'office');
  await until('the printer accepted the job as 41', async () => (await spooler.get(jobs[0].jobId))?.cupsJobId === '41');
  driver.silent = true;
  const reads = driver.reads;
  // the silent driver never answers: an answer at all shows the reads are bounded by the budget
  const answers = await Promise.all([spooler.get(jobs[0].jobId), spooler.get(jobs[0].jobId), spooler.get(jobs[0].jobId)]);
  assert.deepEqual(answers.map((j) => j?.state), ['printing', 'printing', 'printing']);
  assert.equal(driver.reads, reads + 1);
});

test('a read that fails (printer unreachable) leaves the last known state', async () => {
  const { spooler, driver } = await setup();
  const { jobs } = await spooler.submit(submission(false), [office], 'office');
  await until('the printer accepted the job as 41', async () => (await spooler.get(jobs[0].jobId))?.cupsJobId === '41');
  driver.jobState = () => Promise.reject(new Error('connection refused'));
  const job = await spooler.get(jobs[0].jobId);
  assert.equal(job?.state, 'printing');
  assert.equal(job?.error, null);
});

test('wait:true answers once the printer reports the job ended: completed, or failed with the printer\'s error', async () => {
  const { spooler, driver } = await setup();
  const submitted = spooler.submit(submission(true), [office], 'office');
  await until('the printer was asked for the job state', () => driver.reads >= 1);
  // the printer still reports printing: an answer now would say so, not completed
  driver.state = { state: 'completed', error: null };
  const { jobs } = await submitted;
  assert.equal(jobs[0].state, 'completed');
  assert.equal(jobs[0].cupsJobId, '41');

  driver.state = { state: 'failed', error: 'ipp ipp://h:631/ipp/print: job 42 aborted by the printer (aborted-by-system)' };
  const failed = await spooler.submit(submission(true), [office], 'office');
  assert.equal(failed.jobs[0].state, 'failed');
  assert.equal(failed.jobs[0].error, 'ipp ipp://h:631/ipp/print: job 42 aborted by the printer (aborted-by-system)');
});

test('wait:true is bounded: a job still printing after the wait answers printing', async () => {
  let clock = 0;
  // every reading of the clock moves it a minute on: the 2-minute wait ends after a few reads
  const { spooler, driver } = await setup(() => (clock += 60_000));
  const { jobs } = await spooler.submit(submission(true), [office], 'office');
  assert.equal(jobs[0].state, 'printing');
  assert.equal(jobs[0].completedAt, null);
  assert.ok(driver.reads >= 1);
});

test('canceling a job the printer holds aborts the delivery signal (the IPP driver sends Cancel-Job)', async () => {
  const { spooler, driver } = await setup();
  const { jobs } = await spooler.submit(submission(false), [office], 'office');
  await until('the printer accepted the job as 41', async () => (await spooler.get(jobs[0].jobId))?.cupsJobId === '41');
  assert.equal(driver.signals[0].aborted, false);
  const canceled = spooler.cancel(jobs[0].jobId);
  assert.equal(canceled?.state, 'failed');
  assert.equal(canceled?.error, 'Canceled');
  assert.equal(driver.signals[0].aborted, true);
  const reads = driver.reads;
  await spooler.get(jobs[0].jobId);
  assert.equal(driver.reads, reads, 'a canceled job is not read from the printer again');
});

test('a wait:false job leaves the disk spool once the printer accepted it (a restart does not send it twice)', async () => {
  const { spooler, spoolDir } = await setup();
  const { jobs } = await spooler.submit(submission(false), [office], 'office');
  await until('the printer accepted the job as 41', async () => (await spooler.get(jobs[0].jobId))?.cupsJobId === '41');
  await until('the spool holds no job', () => readdirSync(spoolDir).filter((f) => f.endsWith('.job')).length === 0);
});
