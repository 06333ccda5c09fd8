// IPP office printers through the HTTP API, against the real ippeveprinter.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { IppEverywherePrinter } from '../fixtures/ipp-everywhere';
import { IppSession, OP } from '../../src/ipp/ipp-session';
import { TAG } from '../../src/ipp/ipp-wire';
import { buildTestPagePdf } from '../../src/ipp/test-page-pdf';

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

async function printerJob(jobId: string): Promise<Map<string, unknown[]>> {
  const session = new IppSession({ uri: printer.uri, timeoutMs: 5000 });
  const answer = await session.call(OP.getJobAttributes, [
    { tag: TAG.integer, name: 'job-id', values: [Number(jobId)] },
    { tag: TAG.keyword, name: 'requested-attributes', values: ['all'] },
  ]);
  return answer.job;
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

test('wait:false: the job state is read live from the printer until completed', async () => {
  const res = await d.api('POST', `/print/${path}`, { body: { content: pdf(), contentType: 'pdf_base64', wait: false } });
  assert.equal(res.status, 201);
  let job: any;
  for (let i = 0; i < 100; i += 1) {
    job = (await d.api('GET', `/jobs/${res.body.result.content.jobId}`)).body.result.content;
    if (job.state === 'completed') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(job.state, 'completed');
  assert.deepEqual((await printerJob(job.cupsJobId)).get('job-state'), [9]);
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

test('a printer reporting media-empty shows it in status and statusReasons', async () => {
  const faulty = new IppEverywherePrinter({ jobCommand: 'echo "STATE: +media-empty" >&2; exit 0' });
  await faulty.start();
  try {
    const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: faulty.port, protocol: 'ipp' } } });
    const faultyPath = added.body.result.content.path;
    await d.api('POST', `/print/${faultyPath}`, { body: { content: pdf(), contentType: 'pdf_base64' } });
    let p: any;
    for (let i = 0; i < 50; i += 1) {
      p = (await d.api('GET', `/printers/${faultyPath}`)).body.result.content;
      if (p.statusReasons.length > 0) break;
      await new Promise((r) => setTimeout(r, 200));
    }
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
  let p: any;
  for (let i = 0; i < 30; i += 1) {
    p = (await d.api('GET', `/printers/${goneePath}`)).body.result.content;
    if (p.status === 'offline') break;
    await new Promise((r) => setTimeout(r, 200));
  }
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
