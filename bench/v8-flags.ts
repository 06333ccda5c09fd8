// What the device's V8 flags (PRINTPROXY_V8_FLAGS, default --optimize-for-size) cost and save: two daemons from the
// bundle, one with the default and one with V8's own defaults (PRINTPROXY_V8_FLAGS=''), side by side in one tinybench
// run: 2 KB ZPL jobs (wait: true, 16 at a time over 4 emulated printers) and PDF shipping labels rendered to ZPL
// (wait: true, 2 at a time); then each daemon's RSS after the run.
// Run: npm run build && node --import tsx bench/v8-flags.ts [seconds-per-task] [--flags 'V8 FLAGS' (instead of the default)]
import { Bench } from 'tinybench';
import { startDaemon, type DaemonHandle } from '../test/helpers/daemon-process';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { shippingLabelPdf } from '../test/fixtures/pdf/barcode-pdf';
import { DEFAULT_V8_FLAGS } from '../src/v8-tuning';
import { cpuMs } from './process-cpu';
import { median, rssMiB } from './process-memory';

const seconds = Number(process.argv[2] ?? 3);
const at = process.argv.indexOf('--flags');
const FLAGS = at > 0 ? process.argv[at + 1] : DEFAULT_V8_FLAGS;
const LABEL = ('^XA^FO20,20^A0N,30,30^FD' + 'x'.repeat(2000) + '^FS^XZ').slice(0, 2048);
const ZPL_AT_ONCE = 16;
/** Rounds taking turns between the two daemons; medians are printed (one run of each drifts with the machine). */
const ROUNDS = 5;
const PDF_AT_ONCE = 2;

interface Side {
  name: string;
  d: DaemonHandle;
  paths: string[];
  emulators: ZplPrinterEmulator[];
}

async function side(name: string, flags: string): Promise<Side> {
  const d = await startDaemon({ entry: 'dist/printproxyd.cjs', env: { PRINTPROXY_V8_FLAGS: flags } });
  const emulators = Array.from({ length: 4 }, () => new ZplPrinterEmulator());
  const paths: string[] = [];
  for (const e of emulators) {
    e.discard = true;
    const port = await e.start();
    const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
    paths.push(res.body.result.content.path);
  }
  return { name, d, paths, emulators };
}

async function jobs(s: Side, count: number, body: unknown): Promise<void> {
  const answers = await Promise.all(Array.from({ length: count }, (_, i) => s.d.api('POST', `/print/${s.paths[i % s.paths.length]}`, { body })));
  const failed = answers.find((a) => a.status !== 200);
  if (failed) throw new Error(`${s.name}: HTTP ${failed.status} ${JSON.stringify(failed.body).slice(0, 200)}`);
}

async function main(): Promise<void> {
  const sides = [await side(FLAGS, FLAGS), await side("V8's defaults", '')];
  const pdf = { content: Buffer.from(await shippingLabelPdf()).toString('base64'), contentType: 'pdf_base64' };
  const zpl = { content: LABEL, contentType: 'zpl' };
  const bench = new Bench({ time: seconds * 1000, warmupTime: 500 });
  /** Daemon CPU ms and jobs of each task's last phase (warm-up or run). */
  const cpu = new Map<string, { start: number; ms: number; jobs: number }>();
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const kind of ['ZPL', 'PDF'] as const) {
      // each round starts with the other daemon, so neither always runs first
      for (const s of round % 2 ? sides : [...sides].reverse()) {
        const name = `${kind} | ${s.name} | ${round}`;
        const count = kind === 'ZPL' ? ZPL_AT_ONCE : PDF_AT_ONCE;
        bench.add(name, async () => {
          const used = cpu.get(name);
          if (used) used.jobs += count;
          await jobs(s, count, kind === 'ZPL' ? zpl : pdf);
        }, {
          beforeAll: () => void cpu.set(name, { start: cpuMs(s.d.proc.pid!), ms: 0, jobs: 0 }),
          afterAll: () => void (cpu.get(name)!.ms = cpuMs(s.d.proc.pid!) - cpu.get(name)!.start),
        });
      }
    }
  }
  await bench.run();
  const rates = new Map<string, number[]>();
  const cpuPerJob = new Map<string, number[]>();
  for (const t of bench.tasks) {
    const mean = (t.result as { latency?: { mean: number } } | undefined)?.latency?.mean;
    if (!mean) throw new Error(`task ${t.name} failed: ${String((t.result as { error?: unknown } | undefined)?.error)}`);
    const key = t.name.split(' | ').slice(0, 2).join(' | ');
    const used = cpu.get(t.name)!;
    rates.set(key, [...(rates.get(key) ?? []), ((t.name.startsWith('ZPL') ? ZPL_AT_ONCE : PDF_AT_ONCE) * 1000) / mean]);
    cpuPerJob.set(key, [...(cpuPerJob.get(key) ?? []), used.ms / used.jobs]);
  }
  console.log(`two daemons from dist/printproxyd.cjs on Node ${process.versions.node}, ${ROUNDS} rounds taking turns; ZPL ${ZPL_AT_ONCE} at a time, PDF labels ${PDF_AT_ONCE} at a time (rendered to ZPL)`);
  console.log('| task | flags | jobs/s, median (range) | daemon CPU ms per job, median |');
  console.log('|---|---|---|---|');
  for (const [key, values] of rates) {
    console.log(`| ${key} | ${median(values).toFixed(1)} (${Math.min(...values).toFixed(0)}-${Math.max(...values).toFixed(0)}) | ${median(cpuPerJob.get(key)!).toFixed(2)} |`);
  }
  for (const kind of ['ZPL', 'PDF']) {
    console.log(`${kind}: ${FLAGS} / V8's defaults jobs/s: ${(median(rates.get(`${kind} | ${sides[0].name}`)!) / median(rates.get(`${kind} | ${sides[1].name}`)!)).toFixed(2)}`);
  }
  for (const s of sides) console.log(`RSS after the run, ${s.name}: ${rssMiB(s.d.proc.pid!).toFixed(1)} MiB`);
  for (const s of sides) {
    await s.d.stop();
    await Promise.all(s.emulators.map((e) => e.stop()));
  }
}

void main();
