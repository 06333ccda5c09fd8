// Printing end to end over real sockets: the daemon on port 0, ZPL printer emulators on TCP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../helpers/until';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { rawExchange } from './raw-http';

const LABEL = '^XA^FO50,50^A0N,40,40^FDHello^FS^XZ';
const FAST_TIMEOUTS = { PRINTPROXY_TCP_CONNECT_TIMEOUT_MS: '1000', PRINTPROXY_TCP_IDLE_TIMEOUT_MS: '1500', PRINTPROXY_TCP_QUERY_TIMEOUT_MS: '300' };

let d: DaemonHandle;
const emulators: ZplPrinterEmulator[] = [];

async function addPrinter(options: { content?: string; tags?: string[] } = {}): Promise<{ emulator: ZplPrinterEmulator; path: string }> {
  const emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  emulators.push(emulator);
  const body = { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, ...(options.content ? { content: options.content } : {}), tags: options.tags ?? [] };
  let res = await d.api('POST', '/printers', { body });
  if (res.status === 409) {
    // the port of an emulator an earlier test stopped, given out again: its printer record goes first
    assert.equal((await d.api('DELETE', `/printers/tcp_127-0-0-1_${port}`)).status, 200);
    res = await d.api('POST', '/printers', { body });
  }
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { emulator, path: res.body.result.content.path };
}

/** The job record of a failed synchronous answer, read back: failed, on `path`, with the same error and a completion time. */
async function assertFailedRecord(res: { body: any }, path: string): Promise<void> {
  const job = await d.api('GET', `/jobs/${res.body.result.content.jobId}`);
  assert.equal(job.status, 200);
  const record = job.body.result.content;
  assert.equal(record.state, 'failed');
  assert.equal(record.printer, path);
  assert.equal(record.error, res.body.result.content.error);
  assert.ok(record.completedAt, 'completedAt is set');
}

before(async () => {
  d = await startDaemon({ env: FAST_TIMEOUTS });
});
after(async () => {
  await d.stop();
  await Promise.all(emulators.map((e) => e.stop()));
});

describe('happy path', () => {
  test('a printer that answers ~HS is probed as zpl; ZPL arrives byte-exact; the job record is complete', async () => {
    const { emulator, path } = await addPrinter();
    assert.equal((await d.api('GET', `/printers/${path}`)).body.result.content.content, 'zpl');
    const res = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl', title: 'Order 42', source: 'erp' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.result.message, 'Printed successfully.');
    const summary = res.body.result.content;
    assert.equal(summary.state, 'completed');
    assert.equal(summary.printer, path);
    assert.equal(summary.target, path);
    assert.deepEqual(Object.keys(summary).sort(), ['completedAt', 'createdAt', 'error', 'errorCode', 'jobId', 'printer', 'source', 'state', 'target', 'title']);
    assert.deepEqual(emulator.jobs().map((j) => j.toString()), [LABEL]);
    const job = await d.api('GET', `/jobs/${summary.jobId}`);
    assert.equal(job.status, 200);
    assert.equal(job.body.result.message, 'Job retrieved.');
    assert.equal(job.body.result.content.contentType, 'zpl');
    assert.equal(job.body.result.content.size, LABEL.length);
    assert.match(job.body.result.content.cupsJobId, /^\d+$/);
  });

  test('zpl_base64 and an octet-stream body with query metadata arrive unmodified', async () => {
    const { emulator, path } = await addPrinter();
    const b64 = await d.api('POST', `/print/${path}`, { body: { content: Buffer.from(LABEL).toString('base64'), contentType: 'zpl_base64' } });
    assert.equal(b64.status, 200);
    const bytes = Buffer.from([0x10, 0x04, 0x01, 0xff, 0x00, 0x7e]);
    const raw = await d.api('POST', `/print/${path}?title=Raw%20job&source=pos`, { raw: bytes });
    assert.equal(raw.status, 200);
    assert.equal(raw.body.result.message, 'Printed successfully.');
    assert.equal(raw.body.result.content.title, 'Raw job');
    assert.deepEqual(emulator.jobs(), [Buffer.from(LABEL), bytes]);
  });

  test('POST /print with an Idempotency-Key and GET /status pipelined behind it: the connection may close; the print retried with its key prints once', async () => {
    const { emulator, path } = await addPrinter();
    const body = JSON.stringify({ content: LABEL, contentType: 'zpl' });
    const key = `X-API-Key: ${d.apiKey}\r\n`;
    const print = `POST /api/v1/print/${path} HTTP/1.1\r\nHost: a\r\n${key}Idempotency-Key: pipelined-1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const outcome = await rawExchange(d.port, `${print}GET /api/v1/status HTTP/1.1\r\nHost: a\r\n${key}\r\n`, { answers: 2 }, 10_000);
    const statuses = outcome.responses.map((r) => r.status);
    assert.deepEqual(statuses, [200, 200].slice(0, statuses.length));
    assert.ok(statuses.length === 2 || outcome.closed, 'neither answered nor closed');
    const again = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl' }, headers: { 'Idempotency-Key': 'pipelined-1' } });
    assert.equal(again.status, 200);
    // the retry may find the pipelined print still going: it answers that job, which then completes
    const jobId = again.body.result.content.jobId as string;
    await until('the job completed', async () => (await d.api('GET', `/jobs/${jobId}`)).body.result.content.state === 'completed');
    await until('the label arrived', () => emulator.jobs().length > 0);
    assert.deepEqual(emulator.jobs().map((j) => j.toString()), [LABEL]);
  });

  test('copies send the ZPL format that many times', async () => {
    const { emulator, path } = await addPrinter();
    await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl', copies: 3 } });
    assert.deepEqual(emulator.jobs().map((j) => j.toString()), [LABEL.repeat(3)]);
  });

  test('an idempotency key (body or header) prints once and returns the same job', async () => {
    const { emulator, path } = await addPrinter();
    const first = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl', idempotencyKey: 'order-7' } });
    const again = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl' }, headers: { 'Idempotency-Key': 'order-7' } });
    assert.equal(again.status, 200);
    assert.equal(again.body.result.content.jobId, first.body.result.content.jobId);
    assert.equal(emulator.jobs().length, 1);
  });

  test('wait:false answers 201 queued and the job completes; GET /jobs lists it, newest first', async () => {
    const { emulator, path } = await addPrinter();
    const res = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl', wait: false } });
    assert.equal(res.status, 201);
    assert.equal(res.body.result.content.state, 'queued');
    await emulator.waitForJobs(1, 5000);
    const job = await pollJob(res.body.result.content.jobId, (j) => j.state === 'completed');
    assert.equal(job.completedAt !== null, true);
    const list = await d.api('GET', '/jobs');
    assert.equal(list.body.result.content[0].jobId, res.body.result.content.jobId);
  });

  test('the test label is a 4x6 ZPL label with a Code 128 barcode', async () => {
    const { emulator, path } = await addPrinter();
    const res = await d.api('POST', `/print/${path}/test`);
    assert.equal(res.status, 200);
    assert.equal(res.body.result.message, 'Printed successfully.');
    assert.equal(res.body.result.content, null);
    const label = emulator.jobs()[0].toString();
    assert.match(label, /^\^XA/);
    assert.match(label, /\^PW812/);
    assert.match(label, /\^LL1218/);
    assert.match(label, /\^BC/);
    assert.match(label, /\^XZ\s*$/);
  });
});

describe('targets', () => {
  test('tag_ fans out to every tagged printer, case-insensitively; an unknown tag is 404', async () => {
    const a = await addPrinter({ tags: ['Dock'] });
    const b = await addPrinter({ tags: ['dock'] });
    const res = await d.api('POST', '/print/tag_DOCK', { body: { content: LABEL, contentType: 'zpl' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.result.content.jobs.length, 2);
    assert.equal(res.body.result.content.jobId, res.body.result.content.jobs[0].jobId);
    assert.equal(res.body.result.content.target, 'tag_DOCK');
    assert.deepEqual(new Set(res.body.result.content.jobs.map((j: any) => j.printer)), new Set([a.path, b.path]));
    assert.equal(a.emulator.jobs().length, 1);
    assert.equal(b.emulator.jobs().length, 1);
    const missing = await d.api('POST', '/print/tag_nowhere', { body: { content: LABEL, contentType: 'zpl' } });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body.result, { module: '/print/tag_nowhere', message: 'Printer not found', content: { message: 'No printer with tag: nowhere' } });
  });

  test('fan-out with one printer not ready: 200, the ready one prints, the other job carries its readiness error', async () => {
    const ready = await addPrinter({ tags: ['mixed'], content: 'zpl' });
    const paused = await addPrinter({ tags: ['mixed'], content: 'zpl' });
    paused.emulator.state.paused = true;
    const res = await d.api('POST', '/print/tag_mixed', { body: { content: LABEL, contentType: 'zpl' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const byPrinter = new Map<string, any>(res.body.result.content.jobs.map((j: any) => [j.printer, j]));
    assert.equal(byPrinter.get(ready.path).state, 'completed');
    assert.equal(byPrinter.get(paused.path).state, 'failed');
    assert.match(byPrinter.get(paused.path).error, /paused/i);
    assert.equal(ready.emulator.jobs().length, 1);
    assert.equal(paused.emulator.jobs().length, 0);
  });

  test('fan-out where every delivery fails answers 200 with each job failed (only all-not-ready is 503)', async () => {
    const a = await addPrinter({ tags: ['gone'], content: 'zpl' });
    const b = await addPrinter({ tags: ['gone'], content: 'zpl' });
    await Promise.all([a.emulator.die(), b.emulator.die()]);
    const res = await d.api('POST', '/print/tag_gone', { body: { content: LABEL, contentType: 'zpl' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.result.content.jobs.map((j: any) => j.state), ['failed', 'failed']);
    for (const job of res.body.result.content.jobs) assert.match(job.error, /connection refused/);
  });

  test('a URL-encoded URI target reaches the same printer', async () => {
    const { emulator, path } = await addPrinter();
    const port = path.split('_').pop();
    const res = await d.api('POST', `/print/${encodeURIComponent(`tcp://127.0.0.1:${port}`)}`, { body: { content: LABEL, contentType: 'zpl' } });
    assert.equal(res.status, 200);
    assert.equal(res.body.result.content.printer, path);
    assert.equal(emulator.jobs().length, 1);
  });
});

describe('pre-flight', () => {
  const cases: Array<[string, (e: ZplPrinterEmulator) => void, Record<string, boolean>, string, string]> = [
    ['paused', (e) => (e.state.paused = true), { paused: true }, 'Printer is paused (may need calibration — press the feed button)', 'paused'],
    ['paper out', (e) => (e.state.paperOut = true), { paperOut: true }, 'Printer is out of paper (load labels and close the head)', 'media-empty-error'],
    ['head open', (e) => (e.state.headOpen = true), { headOpen: true }, 'Print head is open (close the print head)', 'cover-open-error'],
    ['ribbon out', (e) => (e.state.ribbonOut = true), { ribbonOut: true }, 'Ribbon is out (load a new ribbon)', 'marker-supply-empty-error'],
  ];
  for (const [name, apply, flags, message, reason] of cases) {
    test(`${name}: 503 with the readiness body, nothing printed, job failed, status reason ${reason}`, async () => {
      const { emulator, path } = await addPrinter({ content: 'zpl' });
      apply(emulator);
      const res = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl' } });
      assert.equal(res.status, 503);
      assert.equal(res.body.status, 'error');
      assert.equal(res.body.result.message, 'Printer is not ready');
      assert.deepEqual(res.body.result.content, { ready: false, paperOut: false, paused: false, headOpen: false, ribbonOut: false, ...flags, errors: [message] });
      assert.equal(emulator.jobs().length, 0);
      const jobs = (await d.api('GET', '/jobs')).body.result.content.filter((j: any) => j.printer === path);
      assert.equal(jobs[0].state, 'failed');
      assert.equal(jobs[0].error, `Printer is not ready: ${message}`);
      const printer = await pollPrinter(path, (p) => p.status === 'error');
      assert.deepEqual(printer.statusReasons, [reason]);
    });
  }

  test('silent until reset: ^XZ~JA is sent, the retry answers, the job prints', async () => {
    const { emulator, path } = await addPrinter({ content: 'zpl' });
    emulator.silentUntilReset = true;
    const res = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl' } });
    assert.equal(res.status, 200);
    assert.ok(emulator.connections.some((c) => c.toString().includes('~JA')), 'the reset was sent');
    assert.deepEqual(emulator.jobs().map((j) => j.toString()), [LABEL]);
  });

  test('silent to ~HS but ~HQES reports paper out: 503 with the readiness from ~HQES, nothing printed', async () => {
    const { emulator, path } = await addPrinter({ content: 'zpl' });
    emulator.silentToHostStatus = true;
    emulator.state.paperOut = true;
    const res = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl' } });
    assert.equal(res.status, 503);
    assert.equal(res.body.result.message, 'Printer is not ready');
    assert.equal(res.body.result.content.paperOut, true);
    assert.ok(res.body.result.content.errors.includes('Printer is out of paper (load labels and close the head)'), JSON.stringify(res.body.result.content));
    assert.ok(emulator.connections.some((c) => c.toString().includes('~JA')), 'the reset was sent before ~HQES');
    assert.equal(emulator.jobs().length, 0);
  });

  test('silent printer: after reset, retry and ~HQES stay unanswered, the job is attempted and prints', async () => {
    const { emulator, path } = await addPrinter({ content: 'zpl' });
    emulator.silent = true;
    const res = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl' } });
    assert.equal(res.status, 200);
    assert.ok(emulator.connections.some((c) => c.toString().includes('~HQES')), '~HQES was asked');
    assert.deepEqual(emulator.jobs().map((j) => j.toString()), [LABEL]);
  });
});

describe('failures end the job with a clear error in bounded time', () => {
  test('a dead printer (connection refused): 502, job failed naming the printer, status offline', async () => {
    const { emulator, path } = await addPrinter({ content: 'zpl' });
    await emulator.die();
    const res = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl' } });
    assert.equal(res.status, 502);
    assert.equal(res.body.result.message, 'Print failed');
    assert.equal(res.body.result.content.state, 'failed');
    assert.equal(res.body.result.content.message, res.body.result.content.error);
    assert.match(res.body.result.content.error, /^tcp 127\.0\.0\.1:\d+: connection refused/);
    await assertFailedRecord(res, path);
    const printer = await pollPrinter(path, (p) => p.status === 'offline');
    assert.equal(printer.status, 'offline');
  });

  test('a reset mid-job: failed with how many bytes went', async () => {
    const { emulator, path } = await addPrinter({ content: 'zpl' });
    emulator.resetAfterBytes = 1000;
    const big = '^XA' + '^FO10,10^FDxxxxxxxxxxxxxxxxxxxx^FS'.repeat(3000) + '^XZ';
    const res = await d.api('POST', `/print/${path}`, { body: { content: big, contentType: 'zpl' } });
    assert.equal(res.status, 502);
    assert.match(res.body.result.content.error, /connection reset by the printer after \d+ of \d+ bytes/);
    await assertFailedRecord(res, path);
    assert.equal(emulator.jobs().length, 0, 'the reset connection is not counted as a printed job');
  });

  test('a stalled printer: failed with a write timeout, and the queue moves on', async () => {
    const { emulator, path } = await addPrinter({ content: 'zpl' });
    emulator.stall = true;
    const big = '^XA' + 'x'.repeat(20 * 1024 * 1024) + '^XZ';
    const res = await d.api('POST', `/print/${path}`, { body: { content: big, contentType: 'zpl' } });
    assert.equal(res.status, 502);
    assert.match(res.body.result.content.error, /no progress/i);
    await assertFailedRecord(res, path);
    emulator.stall = false;
    const next = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl' } });
    assert.equal(next.status, 200);
  });

  test('a slow printer still completes', async () => {
    const { emulator, path } = await addPrinter({ content: 'zpl' });
    emulator.slowBytesPerSecond = 20_000;
    const label = '^XA' + 'y'.repeat(30_000) + '^XZ';
    const res = await d.api('POST', `/print/${path}`, { body: { content: label, contentType: 'zpl' } });
    assert.equal(res.status, 200);
    assert.equal(emulator.jobs()[0].length, label.length);
  });

  test('a URL that answers 404 fails the job with the HTTP status', async () => {
    const { path } = await addPrinter({ content: 'zpl' });
    const server = http.createServer((_req, res) => {
      res.statusCode = 404;
      res.end('missing');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const res = await d.api('POST', `/print/${path}`, { body: { content: `http://127.0.0.1:${port}/label.zpl`, contentType: 'raw_url' } });
      assert.equal(res.status, 502);
      assert.equal(res.body.result.content.error, `fetching http://127.0.0.1:${port}/label.zpl failed: HTTP 404`);
      await assertFailedRecord(res, path);
    } finally {
      server.close();
    }
  });
});

describe('errors and jobs', () => {
  test('bad input is a 400 naming the field; nothing is printed', async () => {
    const { emulator, path } = await addPrinter({ content: 'zpl' });
    const cases: Array<[unknown, string]> = [
      [{ content: 'x', contentType: 'raw_base64!' }, 'contentType must be one of pdf_url, pdf_base64, raw_url, raw_base64, zpl, zpl_base64, image_url, image_base64'],
      [{ content: '@@@', contentType: 'raw_base64' }, 'content is not valid base64'],
      [{ content: LABEL, contentType: 'zpl', options: { copies: 0 } }, 'options.copies must be an integer >= 1 and <= 9999'],
      [{ contentType: 'zpl' }, 'content is required'],
      [{ content: '/etc/passwd' }, 'Local path not allowed: /etc/passwd (allowed: the data folder\'s files/ and configured share mount points)'],
    ];
    for (const [body, message] of cases) {
      const res = await d.api('POST', `/print/${path}`, { body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.result.message, 'Invalid request');
      assert.equal(res.body.result.content.message, message);
    }
    assert.equal(emulator.jobs().length, 0);
  });

  test('an unknown job is 404 exactly as seed 7', async () => {
    const res = await d.api('GET', '/jobs/pj_000000000000');
    assert.deepEqual(res.body, {
      status: 'error',
      statusCode: 404,
      result: { module: '/jobs/pj_000000000000', message: 'Job not found', content: { message: 'No job with id: pj_000000000000 (unknown, or older than 1 hour)' } },
    });
  });

  test('an unknown printer path is 404 on /print and on /print/{target}/test, with the path named', async () => {
    for (const path of ['/print/tcp_10-9-9-9_9100', '/print/tcp_10-9-9-9_9100/test']) {
      const res = await d.api('POST', path, { body: path.endsWith('/test') ? undefined : { content: LABEL, contentType: 'zpl' } });
      assert.equal(res.status, 404);
      assert.equal(res.body.status, 'error');
      assert.equal(res.body.result.module, path);
      assert.equal(res.body.result.message, 'Printer not found');
      assert.match(res.body.result.content.message, /tcp_10-9-9-9_9100/);
    }
  });

  test('a wait:false job that cannot be written to the spool is a 507 saying why; its record is failed, nothing prints; its key can be sent again', async () => {
    const { emulator, path } = await addPrinter({ content: 'zpl' });
    const spool = join(d.dataDir, 'spool');
    rmSync(spool, { recursive: true, force: true });
    writeFileSync(spool, 'not a folder');
    try {
      const res = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl', wait: false, idempotencyKey: 'spool-retry-1' } });
      assert.equal(res.status, 507);
      assert.equal(res.body.result.message, 'Device cannot store the job');
      assert.match(res.body.result.content.message, /^the job could not be written to the spool: ENOTDIR/);
      const jobs = (await d.api('GET', '/jobs')).body.result.content.filter((j: any) => j.printer === path);
      assert.equal(jobs.length, 1);
      assert.equal(jobs[0].state, 'failed');
      assert.equal(jobs[0].error, res.body.result.content.message);
      assert.equal(emulator.jobs().length, 0);
    } finally {
      rmSync(spool, { force: true });
      mkdirSync(spool, { mode: 0o700 });
    }
    const retry = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl', wait: false, idempotencyKey: 'spool-retry-1' } });
    assert.equal(retry.status, 201, 'a refused submission does not hold its key');
    await emulator.waitForJobs(1, 10_000);
    assert.deepEqual(emulator.jobs().map((j) => j.toString()), [LABEL]);
  });

  test('DELETE /jobs/{id} cancels a held job; it never prints', async () => {
    const { emulator, path } = await addPrinter({ content: 'zpl' });
    emulator.state.paused = true;
    const queued = await d.api('POST', `/print/${path}`, { body: { content: LABEL, contentType: 'zpl', wait: false } });
    const jobId = queued.body.result.content.jobId;
    const del = await d.api('DELETE', `/jobs/${jobId}`);
    assert.equal(del.status, 200);
    assert.equal(del.body.result.content.state, 'failed');
    assert.equal(del.body.result.content.error, 'Canceled');
    emulator.state.paused = false;
    const next = await d.api('POST', `/print/${path}`, { body: { content: '^XA^XZ', contentType: 'zpl' } });
    assert.equal(next.status, 200);
    assert.deepEqual(emulator.jobs().map((j) => j.toString()), ['^XA^XZ']);
  });
});

async function pollJob(jobId: string, wanted: (job: any) => boolean): Promise<any> {
  let job: any;
  await until(`job ${jobId} reaches the expected state`, async () => wanted((job = (await d.api('GET', `/jobs/${jobId}`)).body.result.content)));
  return job;
}

async function pollPrinter(path: string, wanted: (printer: any) => boolean): Promise<any> {
  let last: any;
  await until(`printer ${path} reaches the expected status`, async () => wanted((last = (await d.api('GET', `/printers/${path}`)).body.result.content)));
  return last;
}
