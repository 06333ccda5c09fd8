// Two builds of printproxyd side by side over IPP: each bundle shares one ZPL emulator of its own over IPP, and takes
// turns with the other, round by round, printing the same label (the 4x6 in label as Ghostscript's PWG Raster, or a PNG
// of its pixels) with `ipptool` one job at a time; prints each round's daemon CPU per job (/proc) and, at the end, the
// mean CPU per job and the p50 from Print-Job to label of each. What a change to the IPP job path costs or saves.
// Run: npm run build && node --import tsx bench/ipp-builds.ts BEFORE.cjs AFTER.cjs [pwg|png] [jobs-per-round] [rounds]
// (BEFORE.cjs: the bundle of another checkout, `npm run build` there, with its dist/native beside it.)
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { startDaemon, type DaemonHandle } from '../test/helpers/daemon-process';
import { tempDir } from '../test/helpers/temp-dir';
import { daemonNode } from './daemon-node';
import { labelFiles } from './label-files';
import { cpuMs } from './process-cpu';
import { median } from './process-memory';

const run = promisify(execFile);
const [before, after, kind = 'pwg', perRound = '40', roundsArg = '6'] = process.argv.slice(2);
const JOBS = Number(perRound);
const ROUNDS = Number(roundsArg);
const WARM_UP = 40;

/** One build under test: its daemon, its printer, its URI and figures. */
interface Build {
  entry: string;
  daemon: DaemonHandle;
  printer: ZplPrinterEmulator;
  uri: string;
  cpu: number[];
  times: number[];
}

async function start(entry: string): Promise<Build> {
  const printer = new ZplPrinterEmulator();
  const port = await printer.start();
  const daemon = await startDaemon({ args: ['--log-level', 'error'], command: [...daemonNode(), resolve(entry)] });
  const added = (await daemon.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } })).body.result.content;
  await daemon.api('PATCH', `/printers/${added.path}`, { body: { share: { ipp: true, rawPort: null } } });
  return { entry, daemon, printer, uri: `ipp://127.0.0.1:${daemon.ippPort()}/ipp/print/${added.id}`, cpu: [], times: [] };
}

/** One Print-Job, until its label is at the build's printer (ms). */
async function job(b: Build, file: string): Promise<number> {
  const before = b.printer.connections.length;
  const started = performance.now();
  await run('ipptool', ['-f', file, b.uri, 'print-job.test']);
  while (b.printer.connections.length === before) await new Promise((r) => setTimeout(r, 1));
  return performance.now() - started;
}

const mean = (v: number[]): number => v.reduce((a, b) => a + b, 0) / v.length;

async function main(): Promise<void> {
  if (!before || !after || (kind !== 'pwg' && kind !== 'png')) throw new Error('usage: bench/ipp-builds.ts BEFORE.cjs AFTER.cjs [pwg|png] [jobs-per-round] [rounds]');
  const file = (await labelFiles(tempDir('ipp-builds')))[kind];
  const builds = [await start(before), await start(after)];
  try {
    for (const b of builds) for (let i = 0; i < WARM_UP; i += 1) await job(b, file);
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const b of round % 2 ? builds : [...builds].reverse()) {
        const cpuBefore = cpuMs(b.daemon.proc.pid!);
        for (let i = 0; i < JOBS; i += 1) b.times.push(await job(b, file));
        b.cpu.push((cpuMs(b.daemon.proc.pid!) - cpuBefore) / JOBS);
      }
      console.log(`round ${round}: ${builds.map((b) => `${b.entry} ${b.cpu.at(-1)!.toFixed(2)} ms CPU per job`).join('; ')}`);
    }
    for (const b of builds) console.log(`${b.entry} (${kind}): daemon CPU per job mean ${mean(b.cpu).toFixed(2)} ms (median of rounds ${median(b.cpu).toFixed(2)}); p50 Print-Job to label ${median(b.times).toFixed(1)} ms`);
  } finally {
    for (const b of builds) {
      await b.daemon.stop();
      await b.printer.stop();
    }
  }
}

void main().then(() => process.exit(0), (err: unknown) => {
  console.error(err);
  process.exit(1);
});
