// A shared label printer over IPP: printproxyd against LPrint 1.1 (Debian's `lprint`, on PAPPL), both in front of the
// same ZPL printer emulator, on the same 4x6 in label as PNG and as PWG Raster, each job one `ipptool` Print-Job.
// Run as root: node --import tsx bench/ipp-share.ts [jobs-per-throughput-round]
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import net from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { decodePwgPages } from '../src/render/pwg-raster-decode';
import { shippingLabelPdf } from '../test/fixtures/pdf/barcode-pdf';
import { encodePng } from '../test/fixtures/png-encode';
import { cupsRaster } from '../test/fixtures/raster/cups-raster';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { startDaemon } from '../test/helpers/daemon-process';
import { tempDir } from '../test/helpers/temp-dir';
import { freePort } from '../test/fixtures/ipp-everywhere';
import { cpuMs } from './process-cpu';

const JOBS = Number(process.argv[2] ?? 40);
const LATENCY_RUNS = 15;
const CONCURRENCY = 4;
const ROUNDS = 2;
const LPRINT_DRIVER = 'zpl_4inch-203dpi-dt';


function exec(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, maxBuffer: 16 << 20 }, (err, stdout, stderr) => (err ? reject(new Error(`${command} ${args.join(' ')}: ${err.message}\n${stdout}${stderr}`)) : resolve(stdout)));
  });
}

async function until(what: string | (() => string), check: () => boolean | Promise<boolean>, limitMs = 120_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${limitMs} ms: ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** The 4x6 in shipping label at 203 dpi as PWG Raster (8-bit sGray, made by cupsfilter) and as an 8-bit grey PNG of the same pixels. */
async function labelFiles(dir: string): Promise<{ png: string; pwg: string }> {
  const pwg = await cupsRaster(await shippingLabelPdf(), 'image/pwg-raster', 'sgray8');
  const [page] = [...decodePwgPages(pwg, (i) => i === 0)];
  if (!page) throw new Error('no page in the PWG raster');
  const png = encodePng({ width: page.width, height: page.height, colorType: 0, bitDepth: 8, samples: (x, y) => [page.pixels[y * page.width + x]], pixelsPerMetre: Math.round(203 / 0.0254) });
  writeFileSync(join(dir, 'label.png'), png);
  writeFileSync(join(dir, 'label.pwg'), pwg);
  return { png: join(dir, 'label.png'), pwg: join(dir, 'label.pwg') };
}

/** LPrint 1.1 as its own server: loopback, a free port, no web interface, no TLS; DNS-SD off (no D-Bus system bus to reach avahi). */
async function startLprint(dir: string, emulatorPort: number): Promise<{ uri: string; proc: ChildProcess }> {
  const port = await freePort();
  const env = { ...process.env, HOME: dir, TMPDIR: dir, DBUS_SYSTEM_BUS_ADDRESS: 'unix:path=/nonexistent' };
  const args = ['server', '-o', `server-port=${port}`, '-o', 'listen-hostname=127.0.0.1', '-o', 'log-level=error', '-o', `log-file=${join(dir, 'lprint.log')}`, '-o', `spool-directory=${join(dir, 'spool')}`, '-o', 'server-options=no-web-interface,no-tls'];
  const proc = spawn('lprint', args, { env, stdio: 'ignore' });
  await until('LPrint listens', () => new Promise((resolve) => net.connect(port, '127.0.0.1').on('connect', function (this: net.Socket) { this.destroy(); resolve(true); }).on('error', () => resolve(false))), 10_000);
  await exec('lprint', ['add', '-d', 'zebra', '-v', `socket://127.0.0.1:${emulatorPort}`, '-m', LPRINT_DRIVER], env);
  return { uri: `ipp://127.0.0.1:${port}/ipp/print/zebra`, proc };
}

/** One Print-Job by ipptool, sent again after 20 ms while the server answers server-error-busy (as IPP clients do). */
async function printJob(uri: string, file: string): Promise<void> {
  for (;;) {
    try {
      await exec('ipptool', ['-f', file, uri, 'print-job.test']);
      return;
    } catch (err) {
      // LPrint refuses a PWG Raster job while it prints another ("Currently printing another job.", server-error-busy)
      if (!/server-error-busy|Currently printing another job/.test((err as Error).message)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

interface Figures {
  p50: number;
  jobsPerSecond: number;
  labelBytes: number;
  /** CPU ms per job of the server's process (threads included) in its best throughput round. */
  serverCpuMs: number;
  /** CPU ms per job of the ipptool processes (this process's reaped children) in that round. */
  clientCpuMs: number;
}

/** One Print-Job until its label is at the printer, in ms. */
async function jobToLabel(emulator: ZplPrinterEmulator, uri: string, file: string): Promise<number> {
  const before = emulator.jobs().length;
  const started = performance.now();
  await printJob(uri, file);
  await until('label', () => emulator.jobs().length > before);
  return performance.now() - started;
}

/** Label bytes the emulator has received on finished connections (a server may send several jobs on one connection). */
function delivered(emulator: ZplPrinterEmulator): number {
  return emulator.jobs().reduce((n, job) => n + job.length, 0);
}

/** jobs/s of JOBS Print-Jobs from CONCURRENCY clients, until all their bytes (`jobBytes` each) are out, with the CPU each side used per job. */
async function throughput(emulator: ZplPrinterEmulator, uri: string, file: string, jobBytes: number, serverPid: number): Promise<{ rate: number; serverCpuMs: number; clientCpuMs: number }> {
  const before = delivered(emulator);
  const cpuBefore = { server: cpuMs(serverPid), client: cpuMs('self', true) };
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < JOBS) {
        next += 1;
        await printJob(uri, file);
      }
    }),
  );
  await until(() => `${JOBS} labels from ${uri} (${(delivered(emulator) - before) / jobBytes} arrived)`, () => delivered(emulator) >= before + JOBS * jobBytes);
  const rate = JOBS / ((performance.now() - started) / 1000);
  return { rate, serverCpuMs: (cpuMs(serverPid) - cpuBefore.server) / JOBS, clientCpuMs: (cpuMs('self', true) - cpuBefore.client) / JOBS };
}

/**
 * Both servers on one document, interleaved so that a busy machine weighs on both alike: warm-up, then sequential jobs
 * alternating between them (p50 each), then throughput rounds alternating, LPrint first (best of ROUNDS each).
 */
async function compare(emulator: ZplPrinterEmulator, uris: { ours: string; lprint: string }, pids: { ours: number; lprint: number }, file: string): Promise<{ ours: Figures; lprint: Figures }> {
  const times = { ours: [] as number[], lprint: [] as number[] };
  const bytes = { ours: 0, lprint: 0 };
  for (const who of ['lprint', 'ours'] as const) for (let i = 0; i < 3; i += 1) await jobToLabel(emulator, uris[who], file);
  for (let i = 0; i < LATENCY_RUNS; i += 1) {
    for (const who of ['lprint', 'ours'] as const) {
      times[who].push(await jobToLabel(emulator, uris[who], file));
      bytes[who] = emulator.jobs()[emulator.jobs().length - 1].length;
    }
  }
  const best = { ours: { rate: 0, serverCpuMs: 0, clientCpuMs: 0 }, lprint: { rate: 0, serverCpuMs: 0, clientCpuMs: 0 } };
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const who of ['lprint', 'ours'] as const) {
      const round = await throughput(emulator, uris[who], file, bytes[who], pids[who]);
      if (round.rate > best[who].rate) best[who] = round;
    }
  }
  const p50 = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const figures = (who: 'ours' | 'lprint'): Figures => ({ p50: p50(times[who]), jobsPerSecond: best[who].rate, labelBytes: bytes[who], serverCpuMs: best[who].serverCpuMs, clientCpuMs: best[who].clientCpuMs });
  return { ours: figures('ours'), lprint: figures('lprint') };
}

async function main(): Promise<void> {
  const dir = tempDir('ipp-share-bench');
  const files = await labelFiles(dir);
  const emulator = new ZplPrinterEmulator();
  const emulatorPort = await emulator.start();
  const lprint = await startLprint(dir, emulatorPort);
  const ours = await startDaemon({ args: ['--log-level', 'error'] });
  const added = (await ours.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: emulatorPort, protocol: 'tcp' }, content: 'zpl' } })).body.result.content;
  await ours.api('PATCH', `/printers/${added.path}`, { body: { share: { ipp: true, rawPort: null } } });
  const oursUri = `ipp://127.0.0.1:${ours.ippPort()}/ipp/print/${added.id}`;
  console.log(`LPrint: \`lprint server -o server-port=N -o listen-hostname=127.0.0.1 -o server-options=no-web-interface,no-tls\` (DNS-SD off: no system D-Bus), printer added with \`lprint add -d zebra -v socket://127.0.0.1:EMU -m ${LPRINT_DRIVER}\``);
  console.log(`each job: \`ipptool -f FILE URI print-job.test\`; p50 of ${LATENCY_RUNS} sequential jobs each (Print-Job sent until the label is at the emulator, the two servers alternating); jobs/s: best of ${ROUNDS} rounds of ${JOBS} jobs from ${CONCURRENCY} clients until every label is out (rounds alternating); load average at start ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs`);
  console.log('| document | printproxyd p50 ms | LPrint p50 ms | p50 ratio | printproxyd jobs/s | LPrint jobs/s | jobs/s ratio | ZPL bytes per label printproxyd / LPrint | server CPU ms per job printproxyd / LPrint | ipptool CPU ms per job |');
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  const floors: string[] = [];
  try {
    for (const [name, file] of [['4x6 PNG 203 dpi grey', files.png], ['4x6 PWG Raster 203 dpi sgray_8', files.pwg]] as const) {
      const { ours: mine, lprint: theirs } = await compare(emulator, { ours: oursUri, lprint: lprint.uri }, { ours: ours.proc.pid!, lprint: lprint.proc.pid! }, file);
      const client = (mine.clientCpuMs + theirs.clientCpuMs) / 2;
      console.log(
        `| ${name} | ${mine.p50.toFixed(1)} | ${theirs.p50.toFixed(1)} | ${(theirs.p50 / mine.p50).toFixed(2)}x faster | ${mine.jobsPerSecond.toFixed(1)} | ${theirs.jobsPerSecond.toFixed(1)} | ${(mine.jobsPerSecond / theirs.jobsPerSecond).toFixed(2)}x | ${mine.labelBytes} / ${theirs.labelBytes} | ${mine.serverCpuMs.toFixed(1)} / ${theirs.serverCpuMs.toFixed(1)} | ${client.toFixed(1)} |`,
      );
      // what 3x LPrint's rate would cost in CPU, with our server's cost and the clients' as measured, against the machine
      const needed = ((3 * theirs.jobsPerSecond) * (client + mine.serverCpuMs)) / 1000;
      floors.push(`${name}: 3x LPrint is ${(3 * theirs.jobsPerSecond).toFixed(1)} jobs/s, which needs ${needed.toFixed(2)} CPU-s per s (ipptool ${client.toFixed(1)} ms + printproxyd ${mine.serverCpuMs.toFixed(1)} ms a job) of the ${availableParallelism()} CPUs; a free server would still need ${((3 * theirs.jobsPerSecond * client) / 1000).toFixed(2)}`);
    }
    for (const line of floors) console.log(line);
  } finally {
    // LPrint may sit on a job it cannot finish and ignore SIGTERM: SIGKILL after 3 s
    const exited = new Promise((resolve) => lprint.proc.once('exit', resolve));
    lprint.proc.kill('SIGTERM');
    const stubborn = setTimeout(() => lprint.proc.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(stubborn);
    await ours.stop();
    await emulator.stop();
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
