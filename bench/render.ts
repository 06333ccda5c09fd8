// Render bench: PDF → ZPL per-label latency on one worker, side by side against a base revision (taking turns, wall time
// and CPU time per label); then labels/s on the full pool, PDF → ESC/POS per receipt, our ^GFA encoder against zpl-image.
// Run: node --import tsx bench/render.ts [seconds-per-task] [--base REV (default main)] [--rounds N (default 12)]
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { Bench } from 'tinybench';
import { silentLogger } from '../src/log';
import type { EncodeSpec, RenderJob } from '../src/render/render-job';
import { RenderPool } from '../src/render/render-pool';
import { readPdfiumWasm } from '../src/render/render-assets';
import { blankMono, thresholdAligned } from '../src/render/mono';
import { graphicFieldZ64 } from '../src/languages/zpl/zpl-graphic-field';
import { shippingLabelPdf } from '../test/fixtures/pdf/barcode-pdf';
import { receiptPdf } from '../test/fixtures/pdf/receipt-pdf';
import { decodeLabels } from '../test/render/zpl-label-decode';
import { twoBuilds, type RenderBuild } from './render-builds';

const requireCjs = createRequire(__filename);
const zplImage = requireCjs('zpl-image') as { rgbaToZ64(rgba: Uint8Array, width: number, opts: object): { length: number; rowlen: number; z64: string } };
const args = parseArgs({ allowPositionals: true, options: { base: { type: 'string', default: 'main' }, rounds: { type: 'string', default: '12' } } });
const seconds = Number(args.positionals[0] ?? 3);
const ROUNDS = Number(args.values.rounds);
/** Sequential labels per build per round. */
const PER_ROUND = 50;
const worker = { kind: 'file' as const, path: join(__dirname, '..', 'src', 'render', 'render-worker.ts') };
const BATCH = 16;

/** A PDF render at 203 dpi into `encode`; receipts are 576 dots wide (80 mm paper). */
function pdfJob(bytes: Uint8Array, encode: EncodeSpec): RenderJob {
  return { format: 'pdf', bytes, raster: { dpi: 203, ...(encode.language === 'escpos' ? { widthDots: 576 } : {}) }, encode };
}

function newPool(size: number): RenderPool {
  return new RenderPool({ size, maxQueue: 64, jobTimeoutMs: 30_000, wasm: readPdfiumWasm(), worker, logger: silentLogger });
}

/** Grey (1 byte/dot) and RGBA pictures of the rendered label, the inputs each encoder takes. */
function pictures(zpl: Uint8Array) {
  const [label] = decodeLabels(new TextDecoder().decode(zpl));
  const { pw: width, ll: height, bitmap } = label;
  const grey = new Uint8Array(width * height);
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const v = bitmap.data[y * bitmap.bytesPerRow + (x >> 3)] & (0x80 >> (x & 7)) ? 0 : 255;
      grey[y * width + x] = v;
      rgba.fill(v, (y * width + x) * 4, (y * width + x) * 4 + 3);
      rgba[(y * width + x) * 4 + 3] = 255;
    }
  }
  return { width, height, grey, rgba, mono: blankMono(width, height) };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const load = () => loadavg().map((v) => v.toFixed(2)).join(' ');

/** `PER_ROUND` labels one after the other on `build`: wall ms of each, and process CPU ms (all threads) per label. */
async function round(build: RenderBuild, job: RenderJob): Promise<{ wall: number[]; cpuPerJob: number }> {
  const wall: number[] = [];
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < PER_ROUND; i += 1) {
    const t0 = performance.now();
    await build.render(job);
    wall.push(performance.now() - t0);
  }
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpuPerJob: (cpu.user + cpu.system) / 1000 / PER_ROUND };
}

/** The base revision's pool and this tree's, one worker each, taking turns round by round on the same label. */
async function sideBySide(job: RenderJob): Promise<void> {
  const { builds, baseCommit, cleanup } = twoBuilds(args.values.base!, 1);
  console.log(`side by side, one worker each: base ${args.values.base} (${baseCommit}) against this tree, ${ROUNDS} rounds of ${PER_ROUND} labels each, order alternating; load average ${load()}`);
  for (const b of builds) for (let i = 0; i < PER_ROUND; i += 1) await b.render(job);
  const [baseZpl, ourZpl] = await Promise.all(builds.map(async (b) => Buffer.from((await b.render(job)).bytes)));
  console.log(`ZPL of both builds byte for byte the same: ${baseZpl.equals(ourZpl) ? 'yes' : 'NO'} (${baseZpl.length} / ${ourZpl.length} bytes)`);
  const wall = new Map<RenderBuild, number[]>(builds.map((b) => [b, []]));
  const cpu = new Map<RenderBuild, number[]>(builds.map((b) => [b, []]));
  for (let r = 0; r < ROUNDS; r += 1) {
    const line: string[] = [];
    for (const b of r % 2 === 0 ? builds : [...builds].reverse()) {
      const res = await round(b, job);
      wall.get(b)!.push(...res.wall);
      cpu.get(b)!.push(res.cpuPerJob);
      const sorted = [...res.wall].sort((x, y) => x - y);
      line.push(`${b.name}: p50 ${quantile(sorted, 0.5).toFixed(2)} ms, CPU ${res.cpuPerJob.toFixed(2)} ms/label`);
    }
    console.log(`  round ${r + 1}: ${line.join(' | ')}`);
  }
  console.log('| build | p50 ms | p99 ms | CPU ms per label (median of rounds) |');
  console.log('|---|---|---|---|');
  for (const b of builds) {
    const w = wall.get(b)!.sort((x, y) => x - y);
    const c = cpu.get(b)!.sort((x, y) => x - y);
    console.log(`| ${b.name} | ${quantile(w, 0.5).toFixed(2)} | ${quantile(w, 0.99).toFixed(2)} | ${quantile(c, 0.5).toFixed(2)} |`);
  }
  console.log(`load average after: ${load()}`);
  await cleanup();
}

async function main(): Promise<void> {
  const pdf = pdfJob(await shippingLabelPdf(), { language: 'zpl', copies: 1 });
  await sideBySide(pdf);
  const receipt = pdfJob(await receiptPdf(), { language: 'escpos', copies: 1 });
  const poolSize = availableParallelism();
  const one = newPool(1);
  const full = newPool(poolSize);
  const first = await one.render(pdf);
  const firstReceipt = await one.render(receipt);
  await full.render(pdf);
  const pic = pictures(first.bytes);
  const greySrc = { src: pic.grey, offset: 0, stride: pic.width, width: pic.width, height: pic.height };
  const ours = (level: number) => () => {
    pic.mono.data.fill(0);
    thresholdAligned(pic.mono, greySrc);
    return graphicFieldZ64(pic.mono, level);
  };
  const theirs = () => {
    const r = zplImage.rgbaToZ64(pic.rgba, pic.width, { notrim: true });
    return `^GFA,${r.length},${r.length},${r.rowlen},${r.z64}`;
  };
  const bench = new Bench({ time: seconds * 1000, warmupTime: 300 });
  bench
    .add('one worker: 1 label', () => one.render(pdf))
    .add(`one worker: ${BATCH} labels`, () => Promise.all(Array.from({ length: BATCH }, () => one.render(pdf))))
    .add(`full pool (${poolSize}): ${BATCH} labels`, () => Promise.all(Array.from({ length: BATCH }, () => full.render(pdf))))
    .add('one worker: 1 receipt', () => one.render(receipt))
    .add('encode ours (grey → ^GFA, zlib 6)', ours(6))
    .add('encode ours (grey → ^GFA, zlib 3)', ours(3))
    .add('encode ours (grey → ^GFA, zlib 1)', ours(1))
    .add('encode zpl-image (RGBA → ^GFA, zlib 6)', theirs);
  await bench.run();
  const t = (name: string) => {
    const result = bench.tasks.find((x) => x.name.startsWith(name))!.result;
    if (!('latency' in result)) throw new Error(`${name} did not finish`);
    return result.latency;
  };
  const ms = (v: number) => v.toFixed(2);
  console.log(`4x6 shipping label (${first.widthDots}x${first.heightDots} dots, text + Code 128 + QR image + grey photo), ${first.bytes.length} bytes of ZPL`);
  console.log(`80 mm receipt PDF (${firstReceipt.widthDots}x${firstReceipt.heightDots} dots, text + Code 128), ${firstReceipt.bytes.length} bytes of ESC/POS`);
  console.log('| measure | value |');
  console.log('|---|---|');
  const single = t('one worker: 1 label');
  console.log(`| per-label latency, one worker | p50 ${ms(single.p50)} ms, p99 ${ms(single.p99)} ms |`);
  const oneRate = (BATCH * 1000) / t(`one worker: ${BATCH}`).mean;
  const fullRate = (BATCH * 1000) / t('full pool').mean;
  console.log(`| labels/s, one worker (batches of ${BATCH}) | ${oneRate.toFixed(0)} |`);
  console.log(`| labels/s, full pool of ${poolSize} | ${fullRate.toFixed(0)} (${(fullRate / oneRate).toFixed(2)}x one worker) |`);
  const rcpt = t('one worker: 1 receipt');
  console.log(`| per-receipt latency, PDF → ESC/POS raster, one worker | p50 ${ms(rcpt.p50)} ms, p99 ${ms(rcpt.p99)} ms |`);
  const z = t('encode zpl-image').mean;
  for (const level of [6, 3, 1]) {
    const o = t(`encode ours (grey → ^GFA, zlib ${level})`).mean;
    console.log(`| encoder, ours zlib ${level} vs zpl-image | ${ms(o)} ms vs ${ms(z)} ms: ${(z / o).toFixed(1)}x faster, ${ours(level)().length} vs ${theirs().length} chars |`);
  }
  await Promise.all([one.close(), full.close()]);
}

void main();
