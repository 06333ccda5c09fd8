// Our PDF → ZPL pipeline against CUPS's (cupsfilter: pdftoraster → rastertolabel with a Zebra ZPL PPD) on the same PDFs.
// Latency side by side in one run: a base revision's pool, this tree's and cupsfilter, taking turns round by round.
// Run as root (installs `cups` and `cups-filters` from Debian when missing):
//   node --import tsx bench/cups.ts [seconds-per-task] [--base REV (default main)] [--rounds N (default 6)]
import { execFileSync, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { Bench } from 'tinybench';
import { silentLogger } from '../src/log';
import type { RenderJob } from '../src/render/render-job';
import { RenderPool } from '../src/render/render-pool';
import { readPdfiumWasm } from '../src/render/render-assets';
import { barcodePagesPdf, shippingLabelPdf } from '../test/fixtures/pdf/barcode-pdf';
import { twoBuilds } from './render-builds';

const run = promisify(execFile);
const args = parseArgs({ allowPositionals: true, options: { base: { type: 'string', default: 'main' }, rounds: { type: 'string', default: '6' } } });
const seconds = Number(args.positionals[0] ?? 4);
const ROUNDS = Number(args.values.rounds);
/** Per round: this many labels one after the other from each of our builds, and a tenth of them (at least 3) from CUPS. */
const OURS_PER_ROUND = 40;
const CUPSFILTER = '/usr/sbin/cupsfilter';
const RASTERTOLABEL = '/usr/lib/cups/filter/rastertolabel';
const BATCH = 8;

/** Debian ships rastertolabel in `cups` and pdftoraster in `cups-filters`; the Zebra sample PPD is not packaged, so we write one. */
function ensureCups(): void {
  if (existsSync(CUPSFILTER) && existsSync(RASTERTOLABEL) && existsSync('/usr/lib/cups/filter/pdftoraster')) return;
  console.error('installing cups and cups-filters from Debian …');
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'cups', 'cups-filters'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/** A PPD for CUPS's label driver in Zebra ZPL mode (cupsModelNumber 0x12 = ZEBRA_ZPL), 203 dpi, 1-bit black. */
function zebraPpd(): string {
  const sizes: Array<[string, number, number, string]> = [['w288h432', 288, 432, '4.00x6.00"'], ['w144h72', 144, 72, '2.00x1.00"']];
  const ui = (kw: string) => [
    `*OpenUI *${kw}: PickOne`, `*OrderDependency: 10 AnySetup *${kw}`, `*Default${kw}: w288h432`,
    ...sizes.map(([n, w, h, t]) => `*${kw} ${n}/${t}: "<</PageSize[${w} ${h}]/ImagingBBox null>>setpagedevice"`), `*CloseUI: *${kw}`,
  ];
  return [
    '*PPD-Adobe: "4.3"', '*FormatVersion: "4.3"', '*FileVersion: "1.0"', '*LanguageVersion: English', '*LanguageEncoding: ISOLatin1',
    '*PCFileName: "ZEBRAZPL.PPD"', '*Manufacturer: "Zebra"', '*Product: "(ZPL Label Printer)"', '*ModelName: "Zebra ZPL Label Printer"',
    '*ShortNickName: "Zebra ZPL Label Printer"', '*NickName: "Zebra ZPL Label Printer"', '*PSVersion: "(3010.000) 0"', '*LanguageLevel: "3"',
    '*ColorDevice: False', '*DefaultColorSpace: Gray', '*FileSystem: False', '*Throughput: "1"', '*LandscapeOrientation: Plus90',
    '*TTRasterizer: Type42', '*cupsVersion: 2.4', '*cupsModelNumber: 18', '*cupsManualCopies: True',
    '*cupsFilter: "application/vnd.cups-raster 50 rastertolabel"',
    ...ui('PageSize'), ...ui('PageRegion'),
    '*DefaultImageableArea: w288h432', ...sizes.map(([n, w, h]) => `*ImageableArea ${n}: "0 0 ${w} ${h}"`),
    '*DefaultPaperDimension: w288h432', ...sizes.map(([n, w, h]) => `*PaperDimension ${n}: "${w} ${h}"`),
    '*OpenUI *Resolution/Resolution: PickOne', '*OrderDependency: 10 AnySetup *Resolution', '*DefaultResolution: 203dpi',
    '*Resolution 203dpi/203 DPI: "<</HWResolution[203 203]/cupsBitsPerColor 1/cupsColorOrder 0/cupsColorSpace 3>>setpagedevice"',
    '*CloseUI: *Resolution', '*DefaultFont: Courier', '*Font Courier: Standard "(002.004S)" Standard ROM', '',
  ].join('\n');
}

async function cupsZpl(ppd: string, pdfPath: string, pageSize: string): Promise<Buffer> {
  const { stdout } = await run(CUPSFILTER, ['-p', ppd, '-m', 'printer/zebra', '-e', '-o', `PageSize=${pageSize}`, pdfPath], { encoding: 'buffer', maxBuffer: 64 << 20 });
  return stdout;
}

const p50 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Wall ms of each of `n` sequential calls of `run`. */
async function timed(n: number, run: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const t0 = performance.now();
    await run();
    out.push(performance.now() - t0);
  }
  return out;
}

async function main(): Promise<void> {
  ensureCups();
  const dir = mkdtempSync(join(tmpdir(), 'cups-bench-'));
  const ppd = join(dir, 'zebra-zpl.ppd');
  writeFileSync(ppd, zebraPpd());
  const docs = [
    { name: '4x6 shipping label', pageSize: 'w288h432', pdf: await shippingLabelPdf() },
    { name: '2x1 Code 128 label', pageSize: 'w144h72', pdf: await barcodePagesPdf(2, 1, [{ symbology: 'code128', text: '12345678', mode: 'vector', modulePt: 1 }]) },
  ];
  const poolSize = availableParallelism();
  const worker = { kind: 'file' as const, path: join(__dirname, '..', 'src', 'render', 'render-worker.ts') };
  const full = new RenderPool({ size: poolSize, maxQueue: 64, jobTimeoutMs: 30_000, wasm: readPdfiumWasm(), worker, logger: silentLogger });
  const { builds, baseCommit, cleanup } = twoBuilds(args.values.base!, 1);
  const [base, one] = builds;
  console.log(`latency: base ${args.values.base} (${baseCommit}), this tree (one worker each) and CUPS taking turns, ${ROUNDS} rounds; load average ${loadavg().map((v) => v.toFixed(2)).join(' ')}`);
  const rows: string[] = [];
  for (const doc of docs) {
    const job: RenderJob = { format: 'pdf', bytes: doc.pdf, raster: { dpi: 203 }, encode: { language: 'zpl', copies: 1 } };
    const pdfPath = join(dir, `${doc.pageSize}.pdf`);
    writeFileSync(pdfPath, doc.pdf);
    const oursZpl = (await one.render(job)).bytes;
    await full.render(job);
    const theirZpl = await cupsZpl(ppd, pdfPath, doc.pageSize);
    if (!theirZpl.includes('^XA')) throw new Error(`CUPS produced no ZPL for ${doc.name}`);
    await timed(OURS_PER_ROUND, () => base.render(job));
    await timed(OURS_PER_ROUND, () => one.render(job));
    const lat = { base: [] as number[], ours: [] as number[], cups: [] as number[] };
    const turns: Array<[keyof typeof lat, () => Promise<number[]>]> = [
      ['base', () => timed(OURS_PER_ROUND, () => base.render(job))],
      ['ours', () => timed(OURS_PER_ROUND, () => one.render(job))],
      ['cups', () => timed(Math.max(3, OURS_PER_ROUND / 10), () => cupsZpl(ppd, pdfPath, doc.pageSize))],
    ];
    for (let r = 0; r < ROUNDS; r += 1) {
      const line: string[] = [];
      for (let k = 0; k < turns.length; k += 1) {
        const [name, turn] = turns[(k + r) % turns.length];
        const t = await turn();
        lat[name].push(...t);
        line.push(`${name} ${p50(t).toFixed(2)}`);
      }
      console.log(`  ${doc.name}, round ${r + 1}: p50 ms ${line.join(', ')}`);
    }
    const bench = new Bench({ time: seconds * 1000, warmupIterations: 2, iterations: 5 });
    bench
      .add('ours batch', () => Promise.all(Array.from({ length: BATCH }, () => full.render(job))))
      .add('cups batch', () => Promise.all(Array.from({ length: BATCH }, (_, i) => (i < poolSize ? cupsZpl(ppd, pdfPath, doc.pageSize) : null))));
    await bench.run();
    const mean = (n: string) => {
      const result = bench.tasks.find((t) => t.name === n)!.result;
      if (!('latency' in result)) throw new Error(`${n} did not finish`);
      return result.latency.mean;
    };
    const oursRate = (BATCH * 1000) / mean('ours batch');
    const cupsRate = (poolSize * 1000) / mean('cups batch');
    const [b, o, c] = [p50(lat.base), p50(lat.ours), p50(lat.cups)];
    rows.push(
      `| ${doc.name} | ${b.toFixed(2)} | ${o.toFixed(2)} | ${c.toFixed(1)} | ${(c / b).toFixed(1)}x | ${(c / o).toFixed(1)}x | ` +
        `${oursRate.toFixed(0)} | ${cupsRate.toFixed(1)} | ${(oursRate / cupsRate).toFixed(1)}x | ${oursZpl.length} / ${theirZpl.length} |`,
    );
  }
  console.log(`| document | base p50 ms | ours p50 ms | CUPS p50 ms | latency ratio, base | latency ratio, ours | ours labels/s (pool ${poolSize}) | CUPS labels/s (${poolSize} at once) | throughput ratio | ZPL bytes ours / CUPS |`);
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`load average after: ${loadavg().map((v) => v.toFixed(2)).join(' ')}`);
  await Promise.all([cleanup(), full.close()]);
  rmSync(dir, { recursive: true, force: true });
}

void main();
