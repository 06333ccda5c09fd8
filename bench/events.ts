// Live events under load: print jobs/s over 8 emulated printers with no listener and with 100 WebSocket clients
// subscribed to job.state (in a second process), side by side in one tinybench run, and the p50/p99 from a job's
// state change (the event's emission time) to its arrival at a client.
// Run: npm run build && node --import tsx bench/events.ts [seconds-per-task] [--pin] [--exe EXECUTABLE [--root DEBIAN_ROOT]]
// (--exe: the daemon is a single executable, e.g. dist/firmware/printproxyd-linux-x64, run inside DEBIAN_ROOT with
// firmware/in-debian-root.sh when given: the device's runtime, Node 24 and uWS 20.57, with no HTTP/1 front)
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { once } from 'node:events';
import { Bench } from 'tinybench';
import { startDaemon, type DaemonHandle } from '../test/helpers/daemon-process';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { executableOption } from './executable-option';
import { cpuMs, cpuSplitMs } from './process-cpu';

const seconds = Number(process.argv[2] ?? 5);
const LISTENERS = 100;
const CONCURRENCY = 32;
const LABEL = ('^XA^FO20,20^A0N,30,30^FD' + 'x'.repeat(2000) + '^FS^XZ').slice(0, 2048);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(d: DaemonHandle, path: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: d.port, method: 'POST', path: `/api/v1/print/${path}`, agent, headers: { 'X-API-Key': d.apiKey, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** One batch: CONCURRENCY jobs at once, spread over the printers. */
function batch(d: DaemonHandle, paths: string[], body: string): Promise<void> {
  return Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => post(d, paths[i % paths.length], body))).then(() => undefined);
}

async function ask(child: ChildProcess, message: Record<string, unknown>): Promise<any> {
  const answer = once(child, 'message');
  child.send(message);
  const [reply] = (await answer) as [{ cmd: string; message?: string }];
  if (reply.cmd === 'error') throw new Error(reply.message);
  return reply;
}

/**
 * The event path when the CPU is not saturated: jobs offered at half the no-listener rate (a slice every 20 ms) for
 * `seconds`, with the listeners open; returns the offered and achieved rates and the listeners' latency figures.
 */
async function pacedRun(d: DaemonHandle, paths: string[], body: string, listeners: ChildProcess, bench: Bench): Promise<{ rate: number; achieved: number; stats: any }> {
  const means = bench.tasks.map((t) => (t.result as { latency?: { mean: number } } | undefined)?.latency?.mean ?? NaN);
  const rate = ((CONCURRENCY * 1000) / means[0] + (CONCURRENCY * 1000) / means[2]) / 4;
  await ask(listeners, { cmd: 'open', port: d.port, apiKey: d.apiKey, count: LISTENERS });
  await ask(listeners, { cmd: 'reset' });
  const started = performance.now();
  const sent: Array<Promise<void>> = [];
  let offered = 0;
  while (performance.now() - started < seconds * 1000) {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    for (; offered < due; offered += 1) sent.push(post(d, paths[offered % paths.length], body));
    await new Promise((r) => setTimeout(r, 20));
  }
  await Promise.all(sent);
  const achieved = offered / ((performance.now() - started) / 1000);
  const stats = await ask(listeners, { cmd: 'stats' });
  await ask(listeners, { cmd: 'close' });
  return { rate, achieved, stats };
}

async function main(): Promise<void> {
  const exe = executableOption(process.argv);
  const entry = !exe && existsSync('dist/printproxyd.cjs') ? 'dist/printproxyd.cjs' : undefined;
  // --pin: the daemon on CPU 0, this process, the emulators and the listeners on CPU 1, so the clients cannot take the daemon's core
  const pin = process.argv.includes('--pin');
  if (pin) execFileSync('taskset', ['-cp', '1', String(process.pid)], { stdio: 'ignore' });
  const program = exe
    ? exe.command
    : entry
      ? [process.execPath, '--', resolve(entry)]
      : [process.execPath, '--import', 'tsx', 'src/main.ts'];
  const d = await startDaemon({ entry, ...(pin || exe ? { command: [...(pin ? ['taskset', '-c', '0'] : []), ...program] } : {}), startTimeoutMs: 60_000 });
  const emulators = Array.from({ length: 8 }, () => new ZplPrinterEmulator());
  for (const e of emulators) e.discard = true;
  const paths: string[] = [];
  for (const e of emulators) {
    const port = await e.start();
    const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
    paths.push(res.body.result.content.path);
  }
  const body = JSON.stringify({ content: LABEL, contentType: 'zpl' });
  const listeners = fork(new URL('./event-listeners.ts', import.meta.url).pathname, [], { execArgv: ['--import', 'tsx'] });

  const bench = new Bench({ time: seconds * 1000, warmupTime: 1000 });
  /** Daemon CPU seconds (user, system) per 1,000 jobs, per task (the last phase, warm-up or run, that task ran). */
  const cpuPerKiloJob: Record<string, { user: number; system: number }> = {};
  let listenerCpuPerKiloJob = 0;
  let jobs = 0;
  const task = (name: string, open?: () => Promise<void>, close?: () => Promise<void>) => {
    let cpuAtStart = { user: 0, system: 0 };
    let listenerCpuAtStart = 0;
    bench.add(name, () => ((jobs += CONCURRENCY), batch(d, paths, body)), {
      beforeAll: async () => {
        await open?.();
        jobs = 0;
        cpuAtStart = cpuSplitMs(d.proc.pid!);
        listenerCpuAtStart = cpuMs(listeners.pid!);
      },
      afterAll: async () => {
        // CPU ms per job is CPU s per 1,000 jobs
        const cpu = cpuSplitMs(d.proc.pid!);
        cpuPerKiloJob[name] = { user: (cpu.user - cpuAtStart.user) / jobs, system: (cpu.system - cpuAtStart.system) / jobs };
        if (open) listenerCpuPerKiloJob = (cpuMs(listeners.pid!) - listenerCpuAtStart) / jobs;
        await close?.();
      },
    });
  };
  task('no listener');
  task(
    `${LISTENERS} WebSocket listeners`,
    async () => {
      await ask(listeners, { cmd: 'open', port: d.port, apiKey: d.apiKey, count: LISTENERS });
      await ask(listeners, { cmd: 'reset' });
    },
    async () => void (await ask(listeners, { cmd: 'close' })),
  );
  task('no listener (again)');
  await bench.run();
  const stats = await ask(listeners, { cmd: 'stats' });
  const paced = await pacedRun(d, paths, body, listeners, bench);
  listeners.kill();

  const jobsPerSecond = bench.tasks.map((t) => {
    const mean = (t.result as { latency?: { mean: number } } | undefined)?.latency?.mean;
    if (!mean) throw new Error(`task ${t.name} failed`);
    return (CONCURRENCY * 1000) / mean;
  });
  const without = (jobsPerSecond[0] + jobsPerSecond[2]) / 2;
  console.log(`daemon: ${exe?.label ?? entry ?? 'src/main.ts (tsx)'} (the bench on Node ${process.versions.node}); 2 KB ZPL labels, wait: true, ${CONCURRENCY} at a time over 8 emulated printers; listeners in a second process${pin ? '; daemon pinned to CPU 0, clients to CPU 1' : ''}`);
  console.log('| run | jobs/s | daemon CPU s per 1,000 jobs (user + system) |');
  console.log('|---|---|---|');
  bench.tasks.forEach((t, i) => {
    const { user, system } = cpuPerKiloJob[t.name];
    console.log(`| ${t.name} | ${jobsPerSecond[i].toFixed(0)} | ${(user + system).toFixed(3)} (${user.toFixed(3)} + ${system.toFixed(3)}) |`);
  });
  console.log(`the listeners' process used ${listenerCpuPerKiloJob.toFixed(3)} CPU s per 1,000 jobs on the same ${availableParallelism()} cores`);
  console.log(`jobs/s with ${LISTENERS} listeners / without: ${(jobsPerSecond[1] / without).toFixed(2)}x (target >= 0.9x)`);
  console.log(
    `job.state emission -> arrival at a client, over ${stats.received} deliveries: p50 ${stats.p50.toFixed(2)} ms, p99 ${stats.p99.toFixed(2)} ms, max ${stats.max.toFixed(2)} ms (target p99 < 5 ms; the event time has ms resolution, so these are upper bounds)`,
  );
  console.log(
    `paced at half the no-listener rate (${paced.rate.toFixed(0)} jobs/s offered, ${paced.achieved.toFixed(0)} done) with ${LISTENERS} listeners: p50 ${paced.stats.p50.toFixed(2)} ms, p99 ${paced.stats.p99.toFixed(2)} ms, max ${paced.stats.max.toFixed(2)} ms over ${paced.stats.received} deliveries`,
  );
  agent.destroy();
  await d.stop();
  await Promise.all(emulators.map((e) => e.stop()));
}

void main();
