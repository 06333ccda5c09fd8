// Our PDF → ZPL pipeline against CUPS's (cupsfilter: pdftoraster → rastertolabel with a Zebra ZPL PPD) on the same PDFs.
// Run as root (installs `cups` and `cups-filters` from Debian when missing): node --import tsx bench/cups.ts [seconds-per-task]
import { execFileSync, execFile } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Bench } from 'tinybench';
import { silentLogger } from '../src/log';
import type { RenderJob } from '../src/render/render-job';
import { RenderPool } from '../src/render/render-pool';
import { readPdfiumWasm } from '../src/render/render-assets';
import { barcodePagesPdf, shippingLabelPdf } from '../test/fixtures/pdf/barcode-pdf';

const run = promisify(execFile);
const seconds = Number(process.argv[2] ?? 4);
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
  const one = new RenderPool({ size: 1, maxQueue: 64, jobTimeoutMs: 30_000, wasm: readPdfiumWasm(), worker, logger: silentLogger });
  const full = new RenderPool({ size: poolSize, maxQueue: 64, jobTimeoutMs: 30_000, wasm: readPdfiumWasm(), worker, logger: silentLogger });
  console.log(`| document | ours p50 ms | CUPS p50 ms | latency ratio | ours labels/s (pool ${poolSize}) | CUPS labels/s (${poolSize} at once) | throughput ratio | ZPL bytes ours / CUPS |`);
  console.log('|---|---|---|---|---|---|---|---|');
  for (const doc of docs) {
    const job: RenderJob = { format: 'pdf', bytes: doc.pdf, raster: { dpi: 203 }, encode: { language: 'zpl', copies: 1 } };
    const pdfPath = join(dir, `${doc.pageSize}.pdf`);
    writeFileSync(pdfPath, doc.pdf);
    const oursZpl = (await one.render(job)).bytes;
    await full.render(job);
    const theirZpl = await cupsZpl(ppd, pdfPath, doc.pageSize);
    if (!theirZpl.includes('^XA')) throw new Error(`CUPS produced no ZPL for ${doc.name}`);
    const bench = new Bench({ time: seconds * 1000, warmupIterations: 2, iterations: 5 });
    bench
      .add('ours 1', () => one.render(job))
      .add('cups 1', () => cupsZpl(ppd, pdfPath, doc.pageSize))
      .add('ours batch', () => Promise.all(Array.from({ length: BATCH }, () => full.render(job))))
      .add('cups batch', () => Promise.all(Array.from({ length: BATCH }, (_, i) => (i < poolSize ? cupsZpl(ppd, pdfPath, doc.pageSize) : null))));
    await bench.run();
    const lat = (n: string) => {
      const result = bench.tasks.find((t) => t.name === n)!.result;
      if (!('latency' in result)) throw new Error(`${n} did not finish`);
      return result.latency;
    };
    const oursRate = (BATCH * 1000) / lat('ours batch').mean;
    const cupsRate = (poolSize * 1000) / lat('cups batch').mean;
    console.log(
      `| ${doc.name} | ${lat('ours 1').p50.toFixed(2)} | ${lat('cups 1').p50.toFixed(1)} | ${(lat('cups 1').p50 / lat('ours 1').p50).toFixed(1)}x | ` +
        `${oursRate.toFixed(0)} | ${cupsRate.toFixed(1)} | ${(oursRate / cupsRate).toFixed(1)}x | ${oursZpl.length} / ${theirZpl.length} |`,
    );
  }
  await Promise.all([one.close(), full.close()]);
  rmSync(dir, { recursive: true, force: true });
}

void main();
