// One runtime per printer, seen through the HTTP API: the device lock, pre-flight before rendering, page ranges checked up front.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { boxedPagePdf, rawPdf } from '../fixtures/pdf/hostile-pdf';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until } from '../helpers/until';
import { connectionsTo } from '../helpers/tcp-sockets';
import type { Render } from '../../src/filters/filters';

let d: InProcessDaemon;
let renders = 0;
/** How each render ended: `done`, or the code it failed with. */
const renderOutcomes: string[] = [];
const counting = (render: Render): Render => (job, signal) => {
  renders += 1;
  const result = render(job, signal);
  result.then(
    () => renderOutcomes.push('done'),
    (err: unknown) => renderOutcomes.push((err as { code?: string }).code ?? 'error'),
  );
  return result;
};

before(async () => {
  d = await startInProcess({ usb: () => new FakeUsbBus(), render: counting });
});
after(async () => {
  await d.stop();
});

async function addZpl(emulator: ZplPrinterEmulator): Promise<string> {
  const port = await emulator.start();
  const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.result.content.path;
}

const pdf = Buffer.from(boxedPagePdf(288, 144)).toString('base64');

test('a status probe during a TCP job waits for the device lock instead of opening a second connection', async () => {
  const emulator = new ZplPrinterEmulator();
  const path = await addZpl(emulator);
  try {
    // 32 MiB read at 8 MiB/s: the job holds the device for about 4 s, longer than a cached status lives (2 s), so the
    // GETs below ask for a fresh probe while it is sent; what loopback's socket buffers still hold when the daemon has
    // written everything drains well within the transport's close wait, so the job ends when the printer has it all
    emulator.slowBytesPerSecond = 8 * 1024 * 1024;
    const label = `^XA^FO10,10^FD${'x'.repeat(32 * 1024 * 1024)}^FS^XZ`;
    let done = false;
    const job = d.api('POST', `/print/${path}`, { body: { content: label, contentType: 'zpl' } }).finally(() => (done = true));
    await until('the job is being sent', () => emulator.receiving() > 8 * 1024);
    const queriesBefore = emulator.statusQueries;
    let probes = 0;
    while (!done) {
      assert.equal((await d.api('GET', `/printers/${path}`)).status, 200);
      probes += 1;
    }
    assert.equal((await job).status, 200);
    assert.ok(probes > 2, 'status was asked for while the job was sent');
    await until('a probe reaches the printer once the job released it', async () => {
      await d.api('GET', `/printers/${path}`);
      return emulator.statusQueries > queriesBefore;
    });
    assert.equal(emulator.queriesDuringJobs, 0, 'no status query on a second connection while the job was being sent');
  } finally {
    await emulator.stop();
  }
});

test('a paused printer answers 503 to a wait:true PDF with no render done; a held wait:false PDF renders once the printer is ready', async () => {
  const emulator = new ZplPrinterEmulator();
  const path = await addZpl(emulator);
  try {
    emulator.state.paused = true;
    const before = renders;
    const refused = await d.api('POST', `/print/${path}`, { body: { content: pdf, contentType: 'pdf_base64' } });
    assert.equal(refused.status, 503);
    assert.equal(refused.body.result.content.paused, true);
    assert.equal(renders, before, 'no render for a printer that is not ready');
    const held = await d.api('POST', `/print/${path}`, { body: { content: pdf, contentType: 'pdf_base64', wait: false } });
    assert.equal(held.status, 201);
    await until('the held job asked the printer again', () => emulator.statusQueries >= 4);
    assert.equal(renders, before, 'a held job is not rendered while the printer is paused');
    emulator.state.paused = false;
    await emulator.waitForJobs(1, 10_000);
    assert.equal(renders, before + 1);
    const job = await d.api('GET', `/jobs/${held.body.result.content.jobId}`);
    assert.equal(job.body.result.content.state, 'completed');
    assert.equal(job.body.result.content.errorCode, null);
  } finally {
    await emulator.stop();
  }
});

test('a failed job keeps a stable errorCode beside its error', async () => {
  const emulator = new ZplPrinterEmulator();
  const path = await addZpl(emulator);
  await emulator.stop();
  const res = await d.api('POST', `/print/${path}`, { body: { content: '^XA^XZ', contentType: 'zpl' } });
  assert.equal(res.status, 502);
  assert.equal(res.body.result.content.errorCode, 'CONNECT_REFUSED');
  assert.match(res.body.result.content.error, /connection refused/);
});

test('pageRange "5-3" is a 400 naming the option, and nothing is printed or rendered', async () => {
  const emulator = new ZplPrinterEmulator();
  const path = await addZpl(emulator);
  try {
    const before = renders;
    const res = await d.api('POST', `/print/${path}`, { body: { content: pdf, contentType: 'pdf_base64', options: { pageRange: '5-3' } } });
    assert.equal(res.status, 400);
    assert.match(res.body.result.content.message, /options\.pageRange "5-3"/);
    assert.equal(renders, before);
    assert.equal(emulator.jobs().length, 0);
  } finally {
    await emulator.stop();
  }
});

test('cancelling a job stuck on a printer that accepts but never reads closes every connection the job opened', async () => {
  const emulator = new ZplPrinterEmulator();
  const path = await addZpl(emulator);
  const port = Number(/_(\d+)$/.exec(path)![1]);
  try {
    emulator.stall = true;
    const label = `^XA^FO10,10^FD${'x'.repeat(16 * 1024 * 1024)}^FS^XZ`;
    const queued = await d.api('POST', `/print/${path}`, { body: { content: label, contentType: 'zpl', wait: false } });
    assert.equal(queued.status, 201);
    const jobId = queued.body.result.content.jobId;
    await until('the job is stuck sending', async () => (await d.api('GET', `/jobs/${jobId}`)).body.result.content.state === 'printing' && emulator.receiving() > 4096);
    const canceled = await d.api('DELETE', `/jobs/${jobId}`);
    assert.equal(canceled.body.result.content.state, 'failed');
    assert.equal(canceled.body.result.content.errorCode, 'CANCELED');
    await until('the device holds no connection to the printer', () => connectionsTo(port) === 0);
  } finally {
    await emulator.stop();
  }
});

test('cancelling a job during a slow render stops the render: the job fails Canceled and its render ends CANCELED, not done', async () => {
  const emulator = new ZplPrinterEmulator();
  const path = await addZpl(emulator);
  try {
    assert.equal((await d.api('PATCH', `/printers/${path}`, { body: { dpi: 600 } })).status, 200);
    // 1000 pages of 4x6 in at 600 dpi: seconds of rendering, far longer than the cancel takes
    const kids = Array.from({ length: 1000 }, () => '3 0 R').join(' ');
    const slow = rawPdf(['<< /Type /Catalog /Pages 2 0 R >>', `<< /Type /Pages /Kids [${kids}] /Count 1000 >>`, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 288 432] /Contents 4 0 R >>', '<< /Length 24 >>\nstream\n10 10 50 50 re f\nendstream']);
    const rendersBefore = renders;
    const endedBefore = renderOutcomes.length;
    const queued = await d.api('POST', `/print/${path}`, { body: { content: Buffer.from(slow).toString('base64'), contentType: 'pdf_base64', wait: false } });
    assert.equal(queued.status, 201, JSON.stringify(queued.body));
    await until('the render started', () => renders > rendersBefore);
    const canceled = await d.api('DELETE', `/jobs/${queued.body.result.content.jobId}`);
    assert.equal(canceled.body.result.content.errorCode, 'CANCELED');
    await until('the render ended', () => renderOutcomes.length > endedBefore);
    assert.equal(renderOutcomes[endedBefore], 'CANCELED');
  } finally {
    await emulator.stop();
  }
});
