// Render pool: real render workers under tsx, hostile PDFs failing only their job, queue bound, timeouts, crashes.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DeviceError, RenderQueueFullError } from '../../src/errors';
import { silentLogger } from '../../src/log';
import { RenderPool, type WorkerSource } from '../../src/render/render-pool';
import { barcodePagesPdf } from '../fixtures/pdf/barcode-pdf';
import { boxedPagePdf, manyPagesPdf } from '../fixtures/pdf/hostile-pdf';
import { pdfiumWasm } from './pdfium-fixture';
import { decodeLabels } from './zpl-label-decode';
import { zplJob } from './render-jobs';
import { until } from '../helpers/until';

const realWorker: WorkerSource = { kind: 'file', path: join(__dirname, '..', '..', 'src', 'render', 'render-worker.ts') };
const wasm = pdfiumWasm();

/** A stand-in worker speaking the protocol: crashes on "CRASH", spins on "HANG!" (JS) or "WASM!" (wasm), throws on "THROW", else answers. */
const fakeWorker: WorkerSource = {
  kind: 'code',
  code: `
const { parentPort } = require('node:worker_threads');
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (req) => {
  const bytes = req.job.bytes;
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(5, bytes.length)).toString('latin1');
  if (head === 'CRASH') process.exit(3);
  if (head === 'HANG!') for (;;) {}
  if (head === 'WASM!') {
    // (func (loop (br 0))) exported as f: a loop inside wasm, as a hostile PDF could send pdfium into
    const bytes = new Uint8Array([0,97,115,109,1,0,0,0, 1,4,1,96,0,0, 3,2,1,0, 7,5,1,1,102,0,0, 10,9,1,7,0,3,64,12,0,11,11]);
    new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.f();
  }
  if (head === 'THROW') throw new Error('boom');
  if (head === 'TRAP!') return parentPort.postMessage({ type: 'failed', id: req.id, code: 'RENDER_FAILED', message: 'renderer failed: unreachable', fatal: true });
  if (head === 'PID??') return parentPort.postMessage({ type: 'failed', id: req.id, code: 'RENDER_FAILED', message: String(require('node:worker_threads').threadId), fatal: false });
  const zpl = new TextEncoder().encode('^XA' + head + '^XZ');
  parentPort.postMessage({ type: 'done', id: req.id, output: { bytes: zpl, pages: 1, widthDots: 8, heightDots: 8 } }, [zpl.buffer]);
});`,
};

const pools: RenderPool[] = [];
function pool(worker: WorkerSource, extra: { size?: number; maxQueue?: number; jobTimeoutMs?: number; wasm?: Uint8Array } = {}): RenderPool {
  const p = new RenderPool({ size: extra.size ?? 1, maxQueue: extra.maxQueue ?? 4, jobTimeoutMs: extra.jobTimeoutMs ?? 10_000, wasm: extra.wasm ?? wasm, worker, logger: silentLogger });
  pools.push(p);
  return p;
}
after(() => Promise.all(pools.map((p) => p.close())));

const ascii = (s: string) => new TextEncoder().encode(s);

async function rejectsWith(promise: Promise<unknown>, code: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof DeviceError, `not a DeviceError: ${String(err)}`);
    assert.equal(err.code, code);
    assert.match(err.message, message);
    return true;
  });
}

test('a real worker renders a 2x1 in PDF to one label per page, leaving the caller its buffer', async () => {
  const p = pool(realWorker);
  const pdf = await barcodePagesPdf(2, 1, [
    { symbology: 'code128', text: '12345678', mode: 'vector', modulePt: 1 },
    { symbology: 'qrcode', text: 'A', mode: 'vector', modulePt: 2 },
  ]);
  const result = await p.render(zplJob(pdf, { copies: 3 }));
  assert.equal(pdf.byteLength > 0, true, 'caller buffer still attached');
  assert.deepEqual([result.pages, result.widthDots, result.heightDots], [2, 406, 203]);
  const labels = decodeLabels(new TextDecoder().decode(result.bytes));
  assert.deepEqual(labels.map((l) => [l.pw, l.ll, l.pq]), [[406, 203, 3], [406, 203, 3]]);
});

test('hostile PDFs fail only their own job with a clear error, and the same worker keeps serving', async () => {
  const p = pool(realWorker);
  const good = boxedPagePdf(144, 72);
  await rejectsWith(p.render(zplJob(ascii('this is not a PDF at all'))), 'RENDER_FAILED', /PDF could not be parsed/);
  await rejectsWith(p.render(zplJob(good.subarray(0, 40))), 'RENDER_FAILED', /PDF could not be parsed/);
  await rejectsWith(p.render(zplJob(manyPagesPdf(10_000))), 'RENDER_FAILED', /page count 10000 exceeds limit 1000/);
  await rejectsWith(p.render(zplJob(good, { pageRange: '5-6' })), 'RENDER_FAILED', /selects no page of a 1-page document/);
  await rejectsWith(p.render(zplJob(good, { dpi: 5000 })), 'RENDER_FAILED', /dpi must be an integer from 100 to 600/);
  const huge = await p.render(zplJob(boxedPagePdf(14_400, 14_400)));
  assert.deepEqual([huge.widthDots, huge.heightDots], [1624, 10150], 'a huge page is clamped to 576 x 3600 pt');
  const ok = await p.render(zplJob(good));
  assert.deepEqual([ok.widthDots, ok.heightDots], [406, 203]);
  assert.equal(p.stats().workers, 1);
});

test('a full queue refuses at once with RenderQueueFullError; close fails the rest', async () => {
  const p = pool(fakeWorker, { size: 1, maxQueue: 1 });
  const running = rejectsWith(p.render(zplJob(ascii('HANG!'))), 'RENDER_FAILED', /render pool is closed/);
  const waiting = rejectsWith(p.render(zplJob(ascii('later'))), 'RENDER_FAILED', /render pool is closed/);
  await rejectsWith(p.render(zplJob(ascii('third'))), 'RENDER_QUEUE_FULL', /render queue is full \(2 jobs accepted\)/);
  await assert.rejects(p.render(zplJob(ascii('fourth'))), RenderQueueFullError);
  await p.close();
  await running;
  await waiting;
  await rejectsWith(p.render(zplJob(ascii('after'))), 'RENDER_FAILED', /render pool is closed/);
});

test('a hung worker (in JS or inside wasm) is ended after the job timeout and replaced; only that job fails', async () => {
  const p = pool(fakeWorker, { size: 1, jobTimeoutMs: 150 });
  const hung = p.render(zplJob(ascii('HANG!')));
  const next = p.render(zplJob(ascii('fine1')));
  await rejectsWith(hung, 'RENDER_FAILED', /render timed out after 150 ms/);
  assert.equal(new TextDecoder().decode((await next).bytes), '^XAfine1^XZ');
  await rejectsWith(p.render(zplJob(ascii('WASM!'))), 'RENDER_FAILED', /render timed out after 150 ms/);
  assert.equal(new TextDecoder().decode((await p.render(zplJob(ascii('fine4')))).bytes), '^XAfine4^XZ');
});

test('a worker that crashes or throws is replaced; only its job fails', async () => {
  const p = pool(fakeWorker, { size: 2 });
  const [crashed, thrown, ok] = await Promise.allSettled([p.render(zplJob(ascii('CRASH'))), p.render(zplJob(ascii('THROW'))), p.render(zplJob(ascii('fine2')))]);
  assert.equal(crashed.status, 'rejected');
  assert.match(String((crashed as PromiseRejectedResult).reason.message), /worker crashed \(exit code 3\)/);
  assert.match(String((thrown as PromiseRejectedResult).reason.message), /worker crashed \(exit code 1: boom\)/);
  assert.equal(ok.status, 'fulfilled');
  const again = await p.render(zplJob(ascii('fine3')));
  assert.equal(new TextDecoder().decode(again.bytes), '^XAfine3^XZ');
  assert.equal(p.stats().workers, 2);
});

test('bad wasm fails the jobs with "renderer failed to start" instead of respawning forever', async () => {
  const p = pool(realWorker, { wasm: ascii('not wasm') });
  await rejectsWith(p.render(zplJob(boxedPagePdf(144, 72))), 'RENDER_FAILED', /renderer failed to start: pdfium failed to start/);
  assert.equal(p.stats().workers, 0);
});

test('a job that traps inside pdfium fails, and its worker is replaced since its state is lost', async () => {
  const p = pool(fakeWorker, { size: 1 });
  const threadOf = async () => {
    const err = await p.render(zplJob(ascii('PID??'))).then(() => assert.fail('expected a failure'), (e: DeviceError) => e);
    return err.message;
  };
  const before = await threadOf();
  assert.equal(await threadOf(), before, 'an ordinary failure keeps the worker');
  await rejectsWith(p.render(zplJob(ascii('TRAP!'))), 'RENDER_FAILED', /renderer failed: unreachable/);
  assert.notEqual(await threadOf(), before, 'a new worker thread serves the next job');
});

test('drain lets accepted jobs (waiting and running) finish, refuses new ones, then ends the workers', async () => {
  const p = pool(fakeWorker, { size: 1, maxQueue: 4 });
  await p.render(zplJob(ascii('warm1')));
  const running = p.render(zplJob(ascii('run01')));
  const waiting = p.render(zplJob(ascii('wait1')));
  assert.deepEqual([p.stats().running, p.stats().queued], [1, 1]);
  const drained = p.drain();
  assert.equal(p.drain(), drained, 'idempotent');
  await rejectsWith(p.render(zplJob(ascii('late1'))), 'RENDER_FAILED', /render pool is closed/);
  assert.equal(new TextDecoder().decode((await running).bytes), '^XArun01^XZ');
  assert.equal(new TextDecoder().decode((await waiting).bytes), '^XAwait1^XZ');
  await drained;
  assert.deepEqual(p.stats(), { queued: 0, running: 0, workers: 0 });
});

test('drain of an idle pool ends its workers at once', async () => {
  const p = pool(fakeWorker, { size: 2 });
  await p.render(zplJob(ascii('idle1')));
  await p.drain();
  assert.equal(p.stats().workers, 0);
});

test('a canceled render stops: a waiting one is dropped, a running one has its worker ended, and the pool serves on', async () => {
  const p = pool(fakeWorker, { size: 1, jobTimeoutMs: 20_000 });
  const running = new AbortController();
  const waiting = new AbortController();
  const hung = p.render(zplJob(ascii('HANG!')), running.signal);
  await until('the hanging render runs', () => p.stats().running === 1);
  const queued = p.render(zplJob(ascii('queue')), waiting.signal);
  assert.equal(p.stats().queued, 1);
  waiting.abort();
  await rejectsWith(queued, 'CANCELED', /Canceled/);
  assert.equal(p.stats().queued, 0, 'the waiting render left the queue');
  running.abort();
  await rejectsWith(hung, 'CANCELED', /Canceled/);
  assert.equal(p.stats().running, 0, 'the running render stopped');
  await until('the ended worker is replaced', () => p.stats().workers === 1 && p.stats().running === 0);
  assert.equal(new TextDecoder().decode((await p.render(zplJob(ascii('after')))).bytes), '^XAafter^XZ');
});

test('a render whose signal already aborted is refused as CANCELED and never reaches a worker', async () => {
  const p = pool(fakeWorker);
  const controller = new AbortController();
  controller.abort();
  await rejectsWith(p.render(zplJob(ascii('CRASH')), controller.signal), 'CANCELED', /Canceled/);
  assert.deepEqual(p.stats(), { queued: 0, running: 0, workers: 1 });
});

test('pool settings are checked at construction', () => {
  for (const bad of [{ size: 0 }, { size: 1.5 }, { maxQueue: -1 }, { jobTimeoutMs: 0 }]) {
    assert.throws(() => new RenderPool({ size: 1, maxQueue: 1, jobTimeoutMs: 1000, wasm, worker: fakeWorker, logger: silentLogger, ...bad }), /render pool \w+ must be an integer of at least \d/);
  }
});
