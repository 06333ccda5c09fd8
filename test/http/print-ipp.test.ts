// IPP office printers through the HTTP API, against the real ippeveprinter.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { IppEverywherePrinter, withHeldPrinter } from '../fixtures/ipp-everywhere';
import { IPP_OP as OP } from '../../src/ipp/ipp-constants';
import { IppSession } from '../../src/ipp/ipp-session';
import { TAG } from '../../src/ipp/ipp-wire';
import { buildTestPagePdf } from '../../src/languages/document/test-page-pdf';
import { valueWithin } from '../helpers/until';

let d: DaemonHandle;
let printer: IppEverywherePrinter;
let path: string;

before(async () => {
  printer = new IppEverywherePrinter();
  await printer.start();
  d = await startDaemon();
  const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: printer.port, protocol: 'ipp', resourcePath: '/ipp/print' }, tags: ['office'] } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  path = res.body.result.content.path;
});
after(async () => {
  await d?.stop();
  await printer?.stop();
});

/** The job as the printer itself reports it (Get-Job-Attributes, all attributes). */
async function printerJob(jobId: string, at: IppEverywherePrinter = printer): Promise<Map<string, unknown[]>> {
  const session = new IppSession({ uri: at.uri, timeoutMs: 5000 });
  const answer = await session.call(OP.getJobAttributes, [
    { tag: TAG.integer, name: 'job-id', values: [Number(jobId)] },
    { tag: TAG.keyword, name: 'requested-attributes', values: ['all'] },
  ]);
  return answer.job;
}

/** The job-id the printer gave the one job it holds named `name` (Get-Jobs, 0x000a), or null. */
async function printerJobIdNamed(at: IppEverywherePrinter, name: string): Promise<number | null> {
  const answer = await new IppSession({ uri: at.uri, timeoutMs: 5000 }).call(0x000a, [
    { tag: TAG.keyword, name: 'requested-attributes', values: ['job-id', 'job-name'] },
  ]);
  // Get-Jobs answers one job group per job; IppSession keeps the first, enough for a printer holding one job
  return answer.job.get('job-name')?.[0] === name ? (answer.job.get('job-id')?.[0] as number) : null;
}

/** Adds `at` to the daemon and returns its path. */
async function add(at: IppEverywherePrinter): Promise<string> {
  const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: at.port, protocol: 'ipp' } } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.result.content.path;
}

const getJob = async (jobId: string) => (await d.api('GET', `/jobs/${jobId}`)).body.result.content;

/** Submits a wait:false job to a printer that holds it, and waits until the record carries the printer's job-id. */
async function heldJob(at: IppEverywherePrinter, atPath: string, title: string): Promise<{ jobId: string; printerJobId: number }> {
  const res = await d.api('POST', `/print/${atPath}`, { body: { content: pdf(), contentType: 'pdf_base64', title, wait: false } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const jobId: string = res.body.result.content.jobId;
  const printerJobId = await valueWithin('the printer accepts the job', 5000, () => printerJobIdNamed(at, title));
  await valueWithin(`GET /jobs shows cupsJobId ${printerJobId}, the printer's job-id`, 3000, async () => (await getJob(jobId)).cupsJobId === String(printerJobId));
  return { jobId, printerJobId };
}

const pdf = () => buildTestPagePdf({ deviceId: 'test', printerPath: 'ipp', printedAt: new Date(0) }).toString('base64');

test('an IPP printer is added as pdf with the capabilities it reports', async () => {
  const res = await d.api('GET', `/printers/${path}`);
  const p = res.body.result.content;
  assert.equal(p.content, 'pdf');
  assert.equal(p.status, 'online');
  assert.deepEqual(p.statusReasons, []);
  assert.equal(p.capabilities.makeAndModel, 'Example Office 2000');
  assert.deepEqual(p.capabilities.copiesSupported, [1, 999]);
  assert.deepEqual(p.capabilities.sidesSupported, ['one-sided', 'two-sided-long-edge', 'two-sided-short-edge']);
  assert.ok(p.capabilities.mediaSupported.includes('iso_a4_210x297mm'));
  assert.ok(p.supportedFormats.includes('application/pdf'));
  assert.equal(p.capabilities.colorSupported, false);
});

test('copies, long-edge duplex and grayscale arrive as job attributes; an unsupported option is dropped', async () => {
  const res = await d.api('POST', `/print/${path}`, {
    body: { content: pdf(), contentType: 'pdf_base64', title: 'Invoice', options: { copies: 2, duplex: 'long-edge', colorMode: 'grayscale', fitToPage: true, paperSize: 'iso_a4_210x297mm' } },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.result.content.state, 'completed');
  const record = (await d.api('GET', `/jobs/${res.body.result.content.jobId}`)).body.result.content;
  assert.match(record.cupsJobId, /^\d+$/);
  const job = await printerJob(record.cupsJobId);
  assert.deepEqual(job.get('copies'), [2]);
  assert.deepEqual(job.get('sides'), ['two-sided-long-edge']);
  assert.deepEqual(job.get('print-color-mode'), ['monochrome']);
  assert.deepEqual(job.get('media'), ['iso_a4_210x297mm']);
  assert.deepEqual(job.get('job-name'), ['Invoice']);
  assert.equal(job.get('print-scaling'), undefined, 'fitToPage is dropped: the printer lists no print-scaling');
  assert.deepEqual(job.get('job-state'), [9]);
});

test('page ranges arrive sorted and merged; bin, orientation and quality arrive as media-col, orientation-requested, print-quality', async () => {
  const res = await d.api('POST', `/print/${path}`, {
    body: { content: pdf(), contentType: 'pdf_base64', options: { pageRange: '7-9,1-3,2-5', bin: 'by-pass-tray', paperSize: 'iso_a4_210x297mm', orientation: 'landscape', quality: 'high' } },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const job = await printerJob((await d.api('GET', `/jobs/${res.body.result.content.jobId}`)).body.result.content.cupsJobId);
  assert.deepEqual(job.get('page-ranges'), [{ lower: 1, upper: 5 }, { lower: 7, upper: 9 }]);
  assert.deepEqual(job.get('media-col'), [{ 'media-source': ['by-pass-tray'], 'media-size': [{ 'x-dimension': [21000], 'y-dimension': [29700] }] }]);
  assert.deepEqual(job.get('orientation-requested'), [4]);
  assert.deepEqual(job.get('print-quality'), [5]);
});

test('wait:false: cupsJobId is the printer job-id while the printer still processes the job; the state is read live until completed', async () => {
  await withHeldPrinter(async (held) => {
    const { jobId, printerJobId } = await heldJob(held, await add(held), 'Held report');
    const printing = await getJob(jobId);
    assert.equal(printing.state, 'printing');
    assert.equal(printing.completedAt, null);
    const atPrinter = await printerJob(String(printerJobId), held);
    assert.deepEqual(atPrinter.get('job-state'), [5], 'the printer is still processing it');
    assert.deepEqual(atPrinter.get('job-name'), ['Held report']);
    held.release();
    const done = await valueWithin('GET /jobs shows completed', 5000, async () => {
      const job = await getJob(jobId);
      return job.state === 'completed' && job;
  });
  assert.equal(done.cupsJobId, String(printerJobId));
  assert.equal(done.error, null);
  assert.deepEqual((await printerJob(done.cupsJobId, held)).get('job-state'), [9]);
  });
});

test('a live job read that the printer does not answer, or cannot answer, gives the last known state', async () => {
  await withHeldPrinter(async (held) => {
    const { jobId, printerJobId } = await heldJob(held, await add(held), 'Silent printer');
    held.freeze();
    // a frozen printer never answers: an answer at all shows the read is bounded
    const silent = await d.api('GET', `/jobs/${jobId}`);
    held.thaw();
    assert.equal(silent.status, 200);
    assert.equal(silent.body.result.content.state, 'printing');
    assert.equal(silent.body.result.content.cupsJobId, String(printerJobId));
    await held.stop();
    const gone = await d.api('GET', `/jobs/${jobId}`);
    assert.equal(gone.status, 200);
    assert.equal(gone.body.result.content.state, 'printing');
  });
});

test('wait:true answers only once the printer has finished the job', async () => {
  await withHeldPrinter(async (held) => {
    const heldPath = await add(held);
    const answer = d.api('POST', `/print/${heldPath}`, { body: { content: pdf(), contentType: 'pdf_base64', title: 'Waited' } });
    const printerJobId = await valueWithin('the printer accepts the job', 5000, () => printerJobIdNamed(held, 'Waited'));
    held.release();
    // an answer given while the printer still held the job would say `printing`
    const res = await answer;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.result.content.state, 'completed');
    const record = await getJob(res.body.result.content.jobId);
    assert.equal(record.cupsJobId, String(printerJobId));
    assert.deepEqual((await printerJob(record.cupsJobId, held)).get('job-state'), [9]);
  });
});

test('wait:true: a job the printer aborts fails with the printer\'s reasons and message in error', async () => {
  const failing = new IppEverywherePrinter({ jobCommand: 'echo "ERROR: Out of toner" >&2; exit 1' });
  await failing.start();
  try {
    const res = await d.api('POST', `/print/${await add(failing)}`, { body: { content: pdf(), contentType: 'pdf_base64', title: 'Doomed' } });
    assert.equal(res.status, 502, JSON.stringify(res.body));
    const { jobId, error } = res.body.result.content;
    assert.match(error, /^ipp ipp:\/\/127\.0\.0\.1:\d+\/ipp\/print: job \d+ aborted by the printer \(aborted-by-system\): Out of toner$/);
    const record = await getJob(jobId);
    assert.equal(record.state, 'failed');
    assert.deepEqual((await printerJob(record.cupsJobId, failing)).get('job-state'), [8]);
  } finally {
    await failing.stop();
  }
});

test('the test page arrives as a PDF', async () => {
  const res = await d.api('POST', `/print/${path}/test`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const jobs = (await d.api('GET', '/jobs')).body.result.content;
  const job = await printerJob(jobs[0].cupsJobId);
  assert.deepEqual(job.get('job-name'), ['Test page']);
  // ippeveprinter -k keeps each document in its spool folder, named <job-id>-<job-name>.<extension of its format>
  const kept = readdirSync(printer.dir).filter((f) => f.startsWith(`${jobs[0].cupsJobId}-`) && f.endsWith('.pdf'));
  assert.equal(kept.length, 1, readdirSync(printer.dir).join(', '));
  assert.equal(readFileSync(join(printer.dir, kept[0])).subarray(0, 5).toString(), '%PDF-');
});

test('a stopped printer (paused: ippeveprinter has no printer-state 5) shows error in status and paused in statusReasons', async () => {
  const paused = new IppEverywherePrinter({ jobCommand: 'echo "STATE: +paused" >&2; exit 0' });
  await paused.start();
  try {
    const pausedPath = await add(paused);
    assert.equal((await d.api('GET', `/printers/${pausedPath}`)).body.result.content.status, 'online');
    const res = await d.api('POST', `/print/${pausedPath}`, { body: { content: pdf(), contentType: 'pdf_base64' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const p = await valueWithin('statusReasons show the stop', 10_000, async () => {
      const content = (await d.api('GET', `/printers/${pausedPath}`)).body.result.content;
      return content.statusReasons.length > 0 && content;
    });
    assert.equal(p.status, 'error');
    // ippeveprinter suffixes the reason by its own state: -warning while processing, -report when idle
    assert.equal(p.statusReasons.length, 1, JSON.stringify(p.statusReasons));
    assert.match(p.statusReasons[0], /^paused-(warning|report)$/);
  } finally {
    await paused.stop();
  }
});

test('a printer reporting media-empty shows it in status and statusReasons', async () => {
  const faulty = new IppEverywherePrinter({ jobCommand: 'echo "STATE: +media-empty" >&2; exit 0' });
  await faulty.start();
  try {
    const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: faulty.port, protocol: 'ipp' } } });
    const faultyPath = added.body.result.content.path;
    await d.api('POST', `/print/${faultyPath}`, { body: { content: pdf(), contentType: 'pdf_base64' } });
    const p = await valueWithin('the printer reports a reason', 10_000, async () => {
      const printer = (await d.api('GET', `/printers/${faultyPath}`)).body.result.content;
      return printer.statusReasons.length > 0 && printer;
    });
    assert.equal(p.status, 'error');
    assert.deepEqual(p.statusReasons, ['media-empty-report']);
  } finally {
    await faulty.stop();
  }
});

test('a printer that went away fails the job with a clear error and reads offline', async () => {
  const gone = new IppEverywherePrinter();
  await gone.start();
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: gone.port, protocol: 'ipp' } } });
  await gone.stop();
  const goneePath = added.body.result.content.path;
  const res = await d.api('POST', `/print/${goneePath}`, { body: { content: pdf(), contentType: 'pdf_base64' } });
  assert.equal(res.status, 502);
  assert.match(res.body.result.content.error, /^ipp ipp:\/\/127\.0\.0\.1:\d+\/ipp\/print: connection refused$/);
  const p = await valueWithin('the printer reads offline', 10_000, async () => {
    const printer = (await d.api('GET', `/printers/${goneePath}`)).body.result.content;
    return printer.status === 'offline' && printer;
  });
  assert.equal(p.status, 'offline');
});

test('a printer that takes JPEG but not PDF gets the test page as a JPEG', async () => {
  const jpegOnly = new IppEverywherePrinter({ formats: 'image/jpeg,image/pwg-raster' });
  await jpegOnly.start();
  try {
    const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: jpegOnly.port, protocol: 'ipp' } } });
    const res = await d.api('POST', `/print/${added.body.result.content.path}/test`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const kept = readdirSync(jpegOnly.dir).filter((f) => f.endsWith('.jpg') || f.endsWith('.jpeg'));
    assert.equal(kept.length, 1, readdirSync(jpegOnly.dir).join(', '));
    const bytes = readFileSync(join(jpegOnly.dir, kept[0]));
    assert.equal(bytes.subarray(0, 3).toString('hex'), 'ffd8ff');
  } finally {
    await jpegOnly.stop();
  }
});
