// A shared label printer over IPP: printproxyd against LPrint 1.1 (Debian's `lprint`, on PAPPL), both in front of the
// same ZPL printer emulator, on the same 4x6 in label as PNG and as PWG Raster, each job one `ipptool` Print-Job.
// Run as root: node --import tsx bench/ipp-share.ts [jobs-per-throughput-round]
// IPP_SHARE_BEFORE=/path/to/another/checkout adds that tree's printproxyd as a third server taking turns (before / after).
// Every wait is bounded and names what it waited for; the whole run is bounded by RUN_LIMIT_MS.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { startDaemon, type DaemonHandle } from '../test/helpers/daemon-process';
import { tempDir } from '../test/helpers/temp-dir';
import { freePort } from '../test/fixtures/ipp-everywhere';
import { cpuMs } from './process-cpu';
import { daemonNode } from './daemon-node';
import { labelFiles } from './label-files';

const JOBS = Number(process.argv[2] ?? 40);
/** Jobs of a sequential round (the rounds of 25). */
const SEQUENTIAL = 25;
const CONCURRENCY = 4;
/**
 * Jobs each server prints of a document before the rounds: V8 compiles a job's hot functions with TurboFan, on threads
 * of its own, over the first few dozen; after 3 jobs that compilation (2-5 ms of CPU per job) fell inside the rounds.
 */
const WARM_UP = 30;
/** Rounds of concurrent jobs (the best one counts). */
const ROUNDS = 3;
/**
 * Rounds of SEQUENTIAL jobs one at a time, alternating: a round's CPU is read from /proc in 10 ms ticks (0.4 ms a job),
 * and one server's rounds in one run differed by up to 2.4 ms a job; with three, whole runs moved by 15%.
 */
const SEQUENTIAL_ROUNDS = 8;
const LPRINT_DRIVER = 'zpl_4inch-203dpi-dt';
/** One ipptool run, busy answers and resends included (ms). */
const JOB_LIMIT_MS = 60_000;
/** A label at the emulator once the server accepted its job, and every start and stop step (ms). */
const STEP_LIMIT_MS = 60_000;
/** The whole bench (ms): past it, it says in which phase it was and exits 1. */
const RUN_LIMIT_MS = 20 * 60_000;

let phase = 'starting';
/** Says what the bench is doing now (printed, and named by the run's watchdog). */
function enter(what: string): void {
  phase = what;
  console.log(`  … ${what}`);
}


/** Runs a command to its end, killed (and failed) after `limitMs`. */
function exec(command: string, args: string[], env: NodeJS.ProcessEnv = process.env, limitMs = JOB_LIMIT_MS): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env, maxBuffer: 16 << 20, timeout: limitMs, killSignal: 'SIGKILL' }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const killed = (err as { killed?: boolean }).killed ? ` (killed: not finished within ${limitMs} ms)` : '';
      reject(new Error(`${command} ${args.join(' ')}${killed}: ${err.message}\n${stdout}${stderr}`));
    });
  });
}

/** `promise`, or a rejection naming `what` after `limitMs`. */
function bounded<T>(what: string, promise: Promise<T>, limitMs = STEP_LIMIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not within ${limitMs} ms: ${what}`)), limitMs);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** Resolves when `proc` has exited, at once if it already has. */
function exited(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => proc.once('exit', () => resolve()));
}

/** Polls `check` every 2 ms until it holds; fails naming `what` after `limitMs`, a check that never settles included. */
async function until(what: string | (() => string), check: () => boolean | Promise<boolean>, limitMs = STEP_LIMIT_MS): Promise<void> {
  const deadline = Date.now() + limitMs;
  const name = () => (typeof what === 'string' ? what : what());
  while (!(await bounded(`a check of: ${name()}`, Promise.resolve(check()), Math.max(1, deadline - Date.now())))) {
    if (Date.now() > deadline) throw new Error(`not within ${limitMs} ms: ${name()}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** LPrints started so far: each gets a fresh folder (a new one must not load the state of one that crashed). */
let lprintStarts = 0;

/** A running LPrint: its printer URI, its process, its log file, and why it exited when it did. */
interface Lprint {
  uri: string;
  proc: ChildProcess;
  log: string;
  exit: () => string | null;
}

/**
 * LPrint 1.1 as its own server: loopback, a free port, no web interface, no TLS; DNS-SD off (no D-Bus system bus to
 * reach avahi), HOME and TMPDIR in a fresh folder of this run. As root its control socket is /run/lprint.sock whatever
 * TMPDIR says, so no other LPrint (Debian's lprint.service, another run) may run meanwhile: `lprint add` reaches the
 * one that bound it last. (Run as nobody, with the socket in TMPDIR, it crashed on nearly every concurrent round.)
 */
async function startLprint(dir: string, emulatorPort: number): Promise<Lprint> {
  lprintStarts += 1;
  const home = join(dir, `lprint-${lprintStarts}`);
  mkdirSync(join(home, 'spool'), { recursive: true });
  const port = await freePort();
  const log = join(home, 'lprint.log');
  const env = { ...process.env, HOME: home, TMPDIR: home, DBUS_SYSTEM_BUS_ADDRESS: 'unix:path=/nonexistent' };
  const args = ['server', '-o', `server-port=${port}`, '-o', 'listen-hostname=127.0.0.1', '-o', 'log-level=error', '-o', `log-file=${log}`, '-o', `spool-directory=${join(home, 'spool')}`, '-o', 'server-options=no-web-interface,no-tls'];
  const proc = spawn('lprint', args, { env, stdio: 'ignore' });
  let why: string | null = null;
  proc.once('exit', (code, signal) => (why = `LPrint exited (${code ?? signal}); its log: ${tail(log)}`));
  await until(() => why ?? 'LPrint listens', () => why !== null || new Promise((resolve) => net.connect(port, '127.0.0.1').on('connect', function (this: net.Socket) { this.destroy(); resolve(true); }).on('error', () => resolve(false))), 10_000);
  if (why) throw new Error(why);
  await exec('lprint', ['add', '-d', 'zebra', '-v', `socket://127.0.0.1:${emulatorPort}`, '-m', LPRINT_DRIVER], env).catch(async (err: unknown) => {
    proc.kill('SIGKILL');
    await bounded('LPrint exits after SIGKILL', exited(proc));
    throw err;
  });
  return { uri: `ipp://127.0.0.1:${port}/ipp/print/zebra`, proc, log, exit: () => why };
}

/** The last lines of a log file, or a note that there is none. */
function tail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-6).join('\n') : '(no log)';
}

/** One Print-Job by ipptool, sent again after 20 ms while the server answers server-error-busy (as IPP clients do), for at most JOB_LIMIT_MS. */
async function printJob(uri: string, file: string): Promise<void> {
  const deadline = Date.now() + JOB_LIMIT_MS;
  for (;;) {
    try {
      await exec('ipptool', ['-f', file, uri, 'print-job.test'], process.env, Math.max(1, deadline - Date.now()));
      return;
    } catch (err) {
      // LPrint refuses a PWG Raster job while it prints another ("Currently printing another job.", server-error-busy)
      if (!/server-error-busy|Currently printing another job/.test((err as Error).message)) throw err;
      if (Date.now() > deadline) throw new Error(`${uri} answered server-error-busy for ${JOB_LIMIT_MS} ms: ${(err as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Status queries and the `^XZ` that may end them: a connection carrying nothing else is no job (as ZplPrinterEmulator.jobs() counts). */
const CONTROL = /(\^XZ)?~(HS|HQES|JA)\s*/g;

/**
 * The emulator's jobs, kept up to date by looking at each finished connection once. ZplPrinterEmulator.jobs() joins and
 * scans every payload so far on each call: polled while hundreds of LPrint's 43 KB labels piled up, that took this
 * process's CPU away from the servers under test (and their figures with it).
 */
function jobCounter(emulator: ZplPrinterEmulator): () => Buffer[] {
  const jobs: Buffer[] = [];
  let seen = 0;
  return () => {
    for (; seen < emulator.connections.length; seen += 1) {
      // label bytes only: jobs that follow back to back share a connection and one pre-flight `~HS`
      const labels = emulator.connections[seen].toString('latin1').replace(CONTROL, '');
      if (labels.length > 0) jobs.push(Buffer.from(labels, 'latin1'));
    }
    return jobs;
  };
}

interface Figures {
  p50: number;
  jobsPerSecond: number;
  labelBytes: number;
  /** CPU ms per job of the server's process (threads included) over every sequential round. */
  serverCpuMs: number;
  /** CPU ms per job of the ipptool processes (this process's reaped children) in a throughput round. */
  clientCpuMs: number;
}

/** The jobs at the emulator so far (each a finished connection's payload). */
type Jobs = () => Buffer[];
type Who = 'ours' | 'lprint' | 'before';
const NAMES: Record<Who, string> = { ours: 'printproxyd', lprint: 'LPrint', before: 'printproxyd before' };
/** Another printproxyd tree (a checkout with node_modules) to run as a third server taking turns with the two: before / after in one run. */
const BEFORE_TREE = process.env.IPP_SHARE_BEFORE || null;
/** The servers in the order they take turns. */
const ORDER: Who[] = BEFORE_TREE ? ['lprint', 'ours', 'before'] : ['lprint', 'ours'];

/** One Print-Job until its label is at the printer, in ms. */
async function jobToLabel(jobs: Jobs, uri: string, file: string): Promise<number> {
  const before = jobs().length;
  const started = performance.now();
  await printJob(uri, file);
  await until(() => `the label of a job ${uri} accepted (${jobs().length - before} arrived)`, () => jobs().length > before);
  return performance.now() - started;
}

/** Label bytes (status queries left out) the emulator has received on finished connections (a server may send several jobs on one connection). */
function delivered(jobs: Jobs): number {
  return jobs().reduce((n, job) => n + job.length, 0);
}

/** One throughput round: JOBS Print-Jobs from CONCURRENCY clients, until all their bytes (`jobBytes` each) are out. */
async function throughput(jobs: Jobs, uri: string, file: string, jobBytes: number, serverPid: number): Promise<{ seconds: number; serverCpuMs: number; clientCpuMs: number }> {
  const before = delivered(jobs);
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
  await until(() => `${JOBS} labels from ${uri} (${(delivered(jobs) - before) / jobBytes} arrived)`, () => delivered(jobs) >= before + JOBS * jobBytes);
  return { seconds: (performance.now() - started) / 1000, serverCpuMs: cpuMs(serverPid) - cpuBefore.server, clientCpuMs: cpuMs('self', true) - cpuBefore.client };
}

const p50 = (list: number[]) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];

/** One latency round: SEQUENTIAL jobs one after the other, each until its label is out; their times and the server's CPU ms. */
async function sequentialRound(jobs: Jobs, uri: string, file: string, serverPid: number): Promise<{ times: number[]; serverCpuMs: number }> {
  const before = cpuMs(serverPid);
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i += 1) times.push(await jobToLabel(jobs, uri, file));
  return { times, serverCpuMs: cpuMs(serverPid) - before };
}

/**
 * Both servers on one document, interleaved so that a busy machine weighs on both alike: warm-up, then SEQUENTIAL_ROUNDS rounds
 * of SEQUENTIAL jobs one at a time, alternating (p50 over all, and server CPU per job over all, from /proc), then
 * concurrent throughput rounds alternating, LPrint first (best round's jobs/s). Each round is printed as it ends.
 */
async function compare(jobs: Jobs, servers: Servers, file: string): Promise<Partial<Record<Who, Figures>>> {
  const { uris, pids } = servers;
  const times: Record<Who, number[]> = { ours: [], lprint: [], before: [] };
  const cpu = { ours: 0, lprint: 0, before: 0 };
  enter(`warm-up: ${WARM_UP} jobs each`);
  for (const who of ORDER) for (let i = 0; i < WARM_UP; i += 1) await servers.attempt(who, () => jobToLabel(jobs, uris[who], file));
  const bytes = { ours: 0, lprint: 0, before: 0 };
  for (let round = 1; round <= SEQUENTIAL_ROUNDS; round += 1) {
    for (const who of ORDER) {
      enter(`sequential round ${round} of ${SEQUENTIAL_ROUNDS}: ${NAMES[who]}, ${SEQUENTIAL} jobs one at a time`);
      const r = await servers.attempt(who, () => sequentialRound(jobs, uris[who], file, pids[who]));
      times[who].push(...r.times);
      cpu[who] += r.serverCpuMs;
      bytes[who] = jobs()[jobs().length - 1].length;
      console.log(`    p50 ${p50(r.times).toFixed(1)} ms, server CPU ${(r.serverCpuMs / SEQUENTIAL).toFixed(2)} ms per job`);
    }
  }
  const best = { ours: Number.NaN, lprint: Number.NaN, before: Number.NaN };
  const client = { ours: 0, lprint: 0, before: 0 };
  for (let round = 1; round <= ROUNDS; round += 1) {
    for (const who of ORDER) {
      enter(`throughput round ${round} of ${ROUNDS}: ${NAMES[who]}, ${JOBS} jobs from ${CONCURRENCY} clients`);
      const r = await servers.attempt(who, () => throughput(jobs, uris[who], file, bytes[who], pids[who])).catch((err: unknown) => {
        if (who !== 'lprint') throw err;
        console.log(`    LPrint gave no figure: ${(err as Error).message.split('\n')[0]}`);
        return null;
      });
      if (!r) continue;
      best[who] = Math.max(Number.isNaN(best[who]) ? 0 : best[who], JOBS / r.seconds);
      client[who] = r.clientCpuMs / JOBS;
      console.log(`    ${(JOBS / r.seconds).toFixed(1)} jobs/s, server CPU ${(r.serverCpuMs / JOBS).toFixed(2)} ms per job`);
    }
  }
  const figures = (who: Who): Figures => ({ p50: p50(times[who]), jobsPerSecond: best[who], labelBytes: bytes[who], serverCpuMs: cpu[who] / (SEQUENTIAL_ROUNDS * SEQUENTIAL), clientCpuMs: client[who] });
  return Object.fromEntries(ORDER.map((who) => [who, figures(who)]));
}

/** How many times one step is run again after LPrint crashed in it. */
const LPRINT_RESTARTS = 3;

/** The two servers under test: URIs and pids (LPrint's change when it is started again), and a step run with that restart. */
interface Servers {
  uris: Record<Who, string>;
  pids: Record<Who, number>;
  /** Runs `step` against `who`: LPrint is started again first when it is down, and after a crash in the step, which then runs again (a few times). */
  attempt<T>(who: Who, step: () => Promise<T>): Promise<T>;
  /** LPrint crashes seen so far. */
  crashes(): number;
}

/**
 * LPrint 1.1 crashes under concurrent Print-Jobs (SIGSEGV, dmesg: `segfault at 10` right after papplJobGetData()
 * returned NULL in its ZPL raster callback); the bench used to wait on it forever. It now starts LPrint again (a fresh
 * one: new folder, printer added again), says so, and runs the step again from its start.
 */
function servers(start: () => Promise<Lprint>, current: () => Lprint, ours: Record<'ours' | 'before', { uri: string; pid: number }>): Servers {
  let crashes = 0;
  const s: Servers = {
    uris: { ours: ours.ours.uri, before: ours.before.uri, lprint: current().uri },
    pids: { ours: ours.ours.pid, before: ours.before.pid, lprint: current().proc.pid! },
    async attempt<T>(who: Who, step: () => Promise<T>): Promise<T> {
      for (let tries = 0; ; tries += 1) {
        if (who === 'lprint' && current().exit()) await restart();
        try {
          return await step();
        } catch (err) {
          // a client may see LPrint's connection drop a moment before its exit is reported: wait for it, briefly
          if (who === 'lprint') await Promise.race([exited(current().proc), new Promise((resolve) => setTimeout(resolve, 1000))]);
          const died = who === 'lprint' ? current().exit() : null;
          if (!died) throw err;
          crashes += 1;
          console.log(`    ${died.split('\n')[0]} during "${phase}" (crash ${crashes}); ${tries < LPRINT_RESTARTS ? 'started again, step run again' : 'step given up'}`);
          if (tries >= LPRINT_RESTARTS) throw err;
        }
      }
    },
    crashes: () => crashes,
  };
  async function restart(): Promise<void> {
    const again = await start();
    s.uris.lprint = again.uri;
    s.pids.lprint = again.proc.pid!;
  }
  return s;
}

/** Stops everything the bench started, each step bounded, every step tried; throws the first failure after. */
async function stopAll(lprint: Lprint | null, daemons: DaemonHandle[], emulator: ZplPrinterEmulator | null): Promise<void> {
  const failures: unknown[] = [];
  const step = (p: Promise<unknown>) => p.catch((err: unknown) => failures.push(err));
  if (lprint) {
    // LPrint may sit on a job it cannot finish and ignore SIGTERM: SIGKILL after 3 s
    lprint.proc.kill('SIGTERM');
    const stubborn = setTimeout(() => lprint.proc.kill('SIGKILL'), 3000);
    await step(bounded('LPrint exits after SIGTERM, then SIGKILL', exited(lprint.proc)).finally(() => clearTimeout(stubborn)));
  }
  for (const handle of daemons) {
    await step(bounded('printproxyd exits after SIGTERM', handle.stop()).catch((err: unknown) => {
      handle.proc.kill('SIGKILL');
      throw err;
    }));
  }
  if (emulator) await step(bounded('the emulator closes', emulator.stop()));
  if (failures.length > 0) throw failures[0];
}

/** What runs a printproxyd: this tree's bundle (`npm run build`) as the device runs it, else (and for `tree`) its src/main.ts with tsx. */
function daemonProgram(tree: string | null): string[] {
  const bundle = join(__dirname, '..', 'dist', 'printproxyd.cjs');
  if (!tree && existsSync(bundle)) return [bundle];
  return ['--import', 'tsx', join(tree ?? join(__dirname, '..'), 'src', 'main.ts')];
}

/** A printproxyd (this tree, or `tree`) with the emulator added as a shared ZPL printer: its handle and printer URI. */
async function startShared(emulatorPort: number, tree: string | null): Promise<{ handle: DaemonHandle; uri: string }> {
  const command = [...daemonNode(), ...daemonProgram(tree)];
  const handle = await startDaemon({ args: ['--log-level', 'error'], command, cwd: tree ?? undefined });
  try {
    const added = (await bounded('POST /printers', handle.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: emulatorPort, protocol: 'tcp' }, content: 'zpl' } }))).body.result.content;
    await bounded('PATCH /printers (share.ipp)', handle.api('PATCH', `/printers/${added.path}`, { body: { share: { ipp: true, rawPort: null } } }));
    return { handle, uri: `ipp://127.0.0.1:${handle.ippPort()}/ipp/print/${added.id}` };
  } catch (err) {
    await stopAll(null, [handle], null);
    throw err;
  }
}

/** One document's table row: p50, server CPU per job and jobs/s of printproxyd (`mine`) against `theirs`. */
function row(name: string, mine: Figures, theirs: Figures): string {
  return `| ${name} | ${mine.p50.toFixed(1)} | ${theirs.p50.toFixed(1)} | ${(mine.p50 / theirs.p50).toFixed(2)}x | ${mine.serverCpuMs.toFixed(2)} | ${theirs.serverCpuMs.toFixed(2)} | ${(mine.serverCpuMs / theirs.serverCpuMs).toFixed(2)}x | ${mine.jobsPerSecond.toFixed(1)} | ${theirs.jobsPerSecond.toFixed(1)} | ${mine.labelBytes} / ${theirs.labelBytes} | ${mine.clientCpuMs.toFixed(1)} |`;
}

async function main(): Promise<void> {
  const dir = tempDir('ipp-share-bench');
  enter('making the label files with gs');
  const files = await bounded('gs makes the PWG Raster label', labelFiles(dir));
  const emulator = new ZplPrinterEmulator();
  const emulatorPort = await bounded('the printer emulator listens', emulator.start());
  const jobs = jobCounter(emulator);
  let lprint: Lprint | null = null;
  const daemons: DaemonHandle[] = [];
  const watchdog = setTimeout(() => {
    console.error(`the bench did not finish within ${RUN_LIMIT_MS / 60_000} min; it was at: ${phase}`);
    lprint?.proc.kill('SIGKILL');
    for (const d of daemons) d.proc.kill('SIGKILL');
    process.exit(1);
  }, RUN_LIMIT_MS);
  watchdog.unref();
  const results: string[] = [];
  try {
    enter('starting LPrint');
    lprint = await startLprint(dir, emulatorPort);
    enter('starting printproxyd');
    const ours = await startShared(emulatorPort, null);
    daemons.push(ours.handle);
    if (BEFORE_TREE) enter(`starting printproxyd before, from ${BEFORE_TREE}`);
    const before = BEFORE_TREE ? await startShared(emulatorPort, BEFORE_TREE) : ours;
    if (before !== ours) daemons.push(before.handle);
    const all = servers(
      async () => {
        await stopAll(lprint, [], null);
        lprint = await startLprint(dir, emulatorPort);
        return lprint;
      },
      () => lprint!,
      { ours: { uri: ours.uri, pid: ours.handle.proc.pid! }, before: { uri: before.uri, pid: before.handle.proc.pid! } },
    );
    console.log(`LPrint: \`lprint server -o server-port=N -o listen-hostname=127.0.0.1 -o server-options=no-web-interface,no-tls\` (DNS-SD off: no system D-Bus), printer added with \`lprint add -d zebra -v socket://127.0.0.1:EMU -m ${LPRINT_DRIVER}\``);
    console.log(`each job: \`ipptool -f FILE URI print-job.test\`; p50 and server CPU per job (utime+stime of each server process from /proc) over ${SEQUENTIAL_ROUNDS} alternating rounds of ${SEQUENTIAL} jobs one at a time (Print-Job sent until the label is at the emulator), after ${WARM_UP} jobs each to warm up; printproxyd runs \`${daemonProgram(null).map((a) => relative(process.cwd(), a) || a).join(' ')}\`; jobs/s: best of ${ROUNDS} rounds of ${JOBS} jobs from ${CONCURRENCY} clients until every label is out (rounds alternating; a step LPrint crashes in is run again on a new LPrint, at most ${LPRINT_RESTARTS} times); servers in turn: ${ORDER.map((w) => NAMES[w]).join(', ')}; load average at start ${loadavg()[0].toFixed(1)} on ${availableParallelism()} CPUs`);
    for (const [name, file] of [['4x6 PNG 203 dpi grey', files.png], ['4x6 PWG Raster 203 dpi sgray_8', files.pwg]] as const) {
      console.log(`${name}:`);
      const figures = await compare(jobs, all, file);
      const [mine, theirs] = [figures.ours!, figures.lprint!];
      results.push(row(`${name}, printproxyd / LPrint`, mine, theirs));
      if (figures.before) results.push(row(`${name}, printproxyd after / before`, mine, figures.before));
      console.log(`  targets: server CPU per job at most half LPrint's: ${mine.serverCpuMs <= theirs.serverCpuMs / 2 ? 'met' : 'missed'} (${(mine.serverCpuMs / theirs.serverCpuMs).toFixed(2)}x); p50 no slower than LPrint's: ${mine.p50 <= theirs.p50 ? 'met' : 'missed'} (${(mine.p50 / theirs.p50).toFixed(2)}x)`);
    }
    console.log('| document, servers A / B | A p50 ms | B p50 ms | A / B p50 | A server CPU ms per job | B server CPU ms per job | A / B CPU | A jobs/s | B jobs/s | ZPL bytes per label A / B | ipptool CPU ms per job (A) |');
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    for (const line of results) console.log(line);
    console.log(`LPrint crashes (each restarted): ${all.crashes()}; load average at the end ${loadavg()[0].toFixed(1)}`);
  } catch (err) {
    const died = lprint?.exit();
    throw died ? new Error(`${(err as Error).message}\n${died}`) : err;
  } finally {
    enter('stopping');
    await stopAll(lprint, daemons, emulator);
    clearTimeout(watchdog);
  }
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
