// The render service's pool life cycle: started lazily at the configured size, replaced after a size change without failing renders.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { DeviceError } from '../../src/errors';
import { silentLogger } from '../../src/log';
import type { RenderOutput } from '../../src/render/render-job';
import { RenderPool } from '../../src/render/render-pool';
import { createRenderService, type RenderService } from '../../src/render/render-service';
import { zplJob } from './render-jobs';

/** A stand-in worker: answers each render with `^XA<first 5 bytes>^XZ`. */
const echoWorker = {
  kind: 'code' as const,
  code: `
const { parentPort } = require('node:worker_threads');
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (req) => {
  const bytes = req.job.bytes;
  const zpl = new TextEncoder().encode('^XA' + Buffer.from(bytes.buffer, bytes.byteOffset, 5).toString('latin1') + '^XZ');
  parentPort.postMessage({ type: 'done', id: req.id, output: { bytes: zpl, pages: 1, widthDots: 8, heightDots: 8 } }, [zpl.buffer]);
});`,
};

/** A filter whose wanted size the test sets, recording every pool it starts. */
function harness(initial: number): { filter: RenderService; pools: Array<{ size: number; pool: RenderPool }>; setWorkers: (n: number) => void } {
  let workers = initial;
  const pools: Array<{ size: number; pool: RenderPool }> = [];
  const filter = createRenderService({
    workers: () => workers,
    startPool: (size) => {
      const pool = new RenderPool({ size, maxQueue: 8, jobTimeoutMs: 10_000, wasm: new Uint8Array(0), worker: echoWorker, logger: silentLogger });
      pools.push({ size, pool });
      return pool;
    },
  });
  filters.push(filter);
  return { filter, pools, setWorkers: (n) => (workers = n) };
}
const filters: RenderService[] = [];
after(() => Promise.all(filters.map((f) => f.close())));

const signal = new AbortController().signal;
const ascii = (s: string) => new TextEncoder().encode(s);
const text = (output: RenderOutput) => new TextDecoder().decode(output.bytes);

test('no pool until the first render, which starts one of the configured size; an unchanged size keeps it', async () => {
  const { filter, pools } = harness(3);
  filter.resize();
  assert.equal(pools.length, 0);
  assert.equal(text(await filter.render(zplJob(ascii('first')), signal)), '^XAfirst^XZ');
  assert.deepEqual(pools.map((p) => p.size), [3]);
  filter.resize();
  assert.equal(text(await filter.render(zplJob(ascii('again')), signal)), '^XAagain^XZ');
  assert.equal(pools.length, 1);
  assert.equal(pools[0].pool.stats().workers, 3);
});

test('a size change retires the pool after the renders it accepted, and the next render starts a pool of the new size', async () => {
  const { filter, pools, setWorkers } = harness(2);
  const accepted = [filter.render(zplJob(ascii('old-1')), signal), filter.render(zplJob(ascii('old-2')), signal)];
  setWorkers(1);
  filter.resize();
  const later = filter.render(zplJob(ascii('new-1')), signal);
  assert.deepEqual((await Promise.all(accepted)).map(text), ['^XAold-1^XZ', '^XAold-2^XZ'], 'nothing in flight failed');
  assert.equal(text(await later), '^XAnew-1^XZ');
  assert.deepEqual(pools.map((p) => p.size), [2, 1]);
  await pools[0].pool.drain();
  assert.equal(pools[0].pool.stats().workers, 0, 'the old pool ended its workers');
  assert.equal(pools[1].pool.stats().workers, 1);
});

test('a size change while idle ends the pool at once; a render finds a new size even without resize()', async () => {
  const { filter, pools, setWorkers } = harness(2);
  await filter.render(zplJob(ascii('warm1')), signal);
  setWorkers(1);
  filter.resize();
  await pools[0].pool.drain();
  assert.equal(pools[0].pool.stats().workers, 0);
  assert.equal(pools.length, 1, 'the next pool starts with the next render');
  await filter.render(zplJob(ascii('warm2')), signal);
  setWorkers(3);
  await filter.render(zplJob(ascii('warm3')), signal);
  assert.deepEqual(pools.map((p) => p.size), [2, 1, 3]);
  await pools[1].pool.drain();
  assert.equal(pools[1].pool.stats().workers, 0);
});

test('close ends the current pool and one still finishing its renders', async () => {
  const { filter, pools, setWorkers } = harness(1);
  await filter.render(zplJob(ascii('warm1')), signal);
  const inFlight = filter.render(zplJob(ascii('busy1')), signal).then(text, (err: Error) => err.message);
  setWorkers(2);
  filter.resize();
  await filter.render(zplJob(ascii('warm2')), signal);
  await filter.close();
  assert.ok(['^XAbusy1^XZ', 'render pool is closed'].includes(await inFlight));
  assert.deepEqual(pools.map((p) => p.pool.stats().workers), [0, 0]);
  await assert.rejects(filter.render(zplJob(ascii('after')), signal), /render pool is closed/);
});

test("a render's signal reaches the pool: a render canceled before it starts never runs (CANCELED)", async () => {
  const { filter } = harness(1);
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(filter.render(zplJob(ascii('never')), controller.signal), (err: unknown) => err instanceof DeviceError && err.code === 'CANCELED');
});
