// Raw ZPL pass-through through the daemon (wait: true, pre-flight on) against a direct socket write plus one ~HS
// round trip to the same emulator, and against bare uWS doing only the printer part (bare-uws-print.ts: the floor of any
// HTTP front); then jobs/s and the daemon's CPU per job over 8 emulated printers. With
// `--baseline FILE` (another build's bundle, e.g. of main) both daemons run side by side, taking turns round by round.
// Run: npm run build && node --import tsx bench/print.ts [rounds] [--baseline FILE]
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { loadavg } from 'node:os';
import { startDaemon, type DaemonHandle } from '../test/helpers/daemon-process';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { cpuMs } from './process-cpu';
import { daemonNode } from './daemon-node';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const baselineAt = args.indexOf('--baseline');
const baselineEntry = baselineAt >= 0 ? args[baselineAt + 1] : undefined;
// the first bare number is the rounds (the file after --baseline may be one too)
const rounds = Number(args.find((a, i) => /^\d+$/.test(a) && (baselineAt < 0 || i !== baselineAt + 1)) ?? 4);
const LATENCY_JOBS = 400;
const THROUGHPUT_JOBS = 4000;
const LABEL = ('^XA^FO20,20^A0N,30,30^FD' + 'x'.repeat(2000) + '^FS^XZ').slice(0, 2048);
const BODY = JSON.stringify({ content: LABEL, contentType: 'zpl' });
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One daemon under test with its 8 emulated printers. */
interface Subject {
  name: string;
  daemon: DaemonHandle;
  emulators: ZplPrinterEmulator[];
  paths: string[];
  latencies: number[];
  /** The daemon's CPU ms per job in each round's one-at-a-time jobs. */
  sequentialCpu: number[];
  rates: number[];
  cpuPerJob: number[];
}

/** Where a print is posted: a daemon's port and API key. */
type Target = Pick<DaemonHandle, 'port' | 'apiKey'>;

/** One job; a kept-alive connection the server closed before answering is retried once on a new one (the count at the end shows a double). */
function post(d: Target, path: string, retry = true): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: d.port, method: 'POST', path: `/api/v1/print/${path}`, agent, headers: { 'X-API-Key': d.apiKey, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(BODY) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => (retry && req.reusedSocket && err.code === 'ECONNRESET' ? post(d, path, false).then(resolve, reject) : reject(err)));
    req.end(BODY);
  });
}

/** The floor: what any client must do at least: one ~HS round trip, then one connection carrying the label. */
function direct(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const query = net.connect({ host: '127.0.0.1', port }, () => query.write('~HS\r\n'));
    let reply = '';
    query.on('data', (c) => {
      reply += c.toString('latin1');
      if ((reply.match(/\x03/g) ?? []).length < 3) return;
      query.destroy();
      const job = net.connect({ host: '127.0.0.1', port }, () => job.end(LABEL));
      job.on('close', () => resolve());
      job.on('error', reject);
    });
    query.on('error', reject);
  });
}

async function timed(samples: number[], count: number, once: () => Promise<void>): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const started = performance.now();
    await once();
    samples.push(performance.now() - started);
  }
}

/** timed(), also pushing the CPU ms per job process `pid` spent meanwhile onto `cpu`. */
async function timedCpu(pid: number, cpu: number[], samples: number[], count: number, once: () => Promise<void>): Promise<void> {
  const before = cpuMs(pid);
  await timed(samples, count, once);
  cpu.push((cpuMs(pid) - before) / count);
}

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];
}

const median = (values: number[]): number => percentile(values, 50);

async function start(name: string, entry: string | undefined): Promise<Subject> {
  // the daemon on a Node whose uWS loads (the shipped runtime where this machine's glibc or Node is too old)
  const program = entry ? [resolve(entry)] : ['--import', 'tsx', resolve('src', 'main.ts')];
  const daemon = await startDaemon({ entry, command: [...daemonNode(), ...program] });
  const emulators = Array.from({ length: 8 }, () => new ZplPrinterEmulator());
  const paths = await Promise.all(
    emulators.map(async (e) => {
      const port = await e.start();
      const res = await daemon.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
      return res.body.result.content.path as string;
    }),
  );
  return { name, daemon, emulators, paths, latencies: [], sequentialCpu: [], rates: [], cpuPerJob: [] };
}

/** 64 clients, THROUGHPUT_JOBS jobs spread over the 8 printers: jobs/s and the daemon's CPU ms per job. */
async function throughput(s: Subject): Promise<string> {
  const cpuBefore = cpuMs(s.daemon.proc.pid!);
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < THROUGHPUT_JOBS) {
        const n = next++;
        await post(s.daemon, s.paths[n % 8]);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = (cpuMs(s.daemon.proc.pid!) - cpuBefore) / THROUGHPUT_JOBS;
  const client = process.cpuUsage(clientBefore);
  const clientMs = (client.user + client.system) / 1000 / THROUGHPUT_JOBS;
  s.rates.push(THROUGHPUT_JOBS / seconds);
  s.cpuPerJob.push(cpu);
  return `${s.name}: ${(THROUGHPUT_JOBS / seconds).toFixed(0)} jobs/s, ${cpu.toFixed(3)} ms daemon CPU per job (this bench's clients and emulators: ${clientMs.toFixed(3)} ms)`;
}

/** bench/bare-uws-print.ts on the daemon's Node, in front of an emulator of its own: the HTTP front's floor. */
async function startBareFloor(): Promise<{ target: Target; printer: ZplPrinterEmulator; proc: ChildProcess }> {
  const printer = new ZplPrinterEmulator();
  const printerPort = await printer.start();
  const [node, ...leading] = daemonNode();
  const proc = spawn(node, [...leading, '--import', 'tsx', resolve('bench', 'bare-uws-print.ts'), String(printerPort)], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((ok, fail) => {
    proc.once('exit', (code) => fail(new Error(`bare-uws-print exited with ${code}`)));
    proc.stdout!.on('data', (d: Buffer) => {
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(d.toString());
      if (m) ok(Number(m[1]));
    });
  });
  return { target: { port, apiKey: '' }, printer, proc };
}

async function main(): Promise<void> {
  const entry = existsSync('dist/printproxyd.cjs') ? 'dist/printproxyd.cjs' : undefined;
  const subjects = [await start(`this build (${entry ?? 'src/main.ts'})`, entry)];
  if (baselineEntry) subjects.push(await start(`baseline (${baselineEntry})`, baselineEntry));
  // the floor has an emulator of its own, so each subject's emulators count only that subject's labels
  const floorPrinter = new ZplPrinterEmulator();
  const floorPort = await floorPrinter.start();
  const floor: number[] = [];
  const bare = await startBareFloor();
  const bareTimes: number[] = [];
  const bareCpu: number[] = [];
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${rounds} rounds, 2 KB ZPL label, wait: true, pre-flight on`);
  for (const s of subjects) await timed([], 50, () => post(s.daemon, s.paths[0])); // warm-up
  await timed([], 50, () => post(bare.target, 'floor'));
  for (let round = 1; round <= rounds; round += 1) {
    const line: string[] = [`round ${round}:`];
    await timed(floor, LATENCY_JOBS, () => direct(floorPort));
    line.push(`direct p50 ${percentile(floor.slice(-LATENCY_JOBS), 50).toFixed(3)} ms`);
    await timedCpu(bare.proc.pid!, bareCpu, bareTimes, LATENCY_JOBS, () => post(bare.target, 'floor'));
    line.push(`bare uWS p50 ${percentile(bareTimes.slice(-LATENCY_JOBS), 50).toFixed(3)} ms (${bareCpu.at(-1)!.toFixed(3)} ms CPU per job)`);
    const turn = round % 2 ? subjects : [...subjects].reverse();
    for (const s of turn) {
      await timedCpu(s.daemon.proc.pid!, s.sequentialCpu, s.latencies, LATENCY_JOBS, () => post(s.daemon, s.paths[0]));
      line.push(`${s.name} p50 ${percentile(s.latencies.slice(-LATENCY_JOBS), 50).toFixed(3)} ms (${s.sequentialCpu.at(-1)!.toFixed(3)} ms CPU per job)`);
    }
    for (const s of turn) line.push(await throughput(s));
    console.log(line.join('; '));
  }
  console.log('| path | p50 ms | p99 ms | p50 / direct | jobs/s (median of rounds) | daemon CPU ms per job (median) |');
  console.log('|---|---|---|---|---|---|');
  console.log(`| direct ~HS + write | ${percentile(floor, 50).toFixed(3)} | ${percentile(floor, 99).toFixed(3)} | 1.00x | | |`);
  console.log(`| bare uWS: the JSON body, then ~HS and the label on one connection (bare-uws-print.ts) | ${percentile(bareTimes, 50).toFixed(3)} | ${percentile(bareTimes, 99).toFixed(3)} | ${(percentile(bareTimes, 50) / percentile(floor, 50)).toFixed(2)}x | | |`);
  for (const s of subjects) {
    const ratio = percentile(s.latencies, 50) / percentile(floor, 50);
    console.log(`| ${s.name} | ${percentile(s.latencies, 50).toFixed(3)} | ${percentile(s.latencies, 99).toFixed(3)} | ${ratio.toFixed(2)}x | ${median(s.rates).toFixed(0)} (${Math.min(...s.rates).toFixed(0)}-${Math.max(...s.rates).toFixed(0)}) | ${median(s.cpuPerJob).toFixed(3)} |`);
  }
  console.log(`one job at a time, CPU per job (median of rounds): bare uWS ${median(bareCpu).toFixed(3)} ms; ${subjects.map((s) => `${s.name} ${median(s.sequentialCpu).toFixed(3)} ms`).join('; ')}`);
  console.log(`targets: p50 <= 2x direct; >= 3,000 jobs/s over 8 printers. load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const s of subjects) {
    const arrived = s.emulators.reduce((sum, e) => sum + e.formats().length, 0);
    const sent = 50 + rounds * (LATENCY_JOBS + THROUGHPUT_JOBS);
    console.log(`${s.name}: ${arrived} labels arrived for ${sent} jobs answered 200${arrived === sent ? '' : ' (MISMATCH)'}`);
  }
  agent.destroy();
  bare.proc.kill();
  await bare.printer.stop();
  await floorPrinter.stop();
  for (const s of subjects) {
    await s.daemon.stop();
    await Promise.all(s.emulators.map((e) => e.stop()));
  }
}

void main();
