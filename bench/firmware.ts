// The single executables as the device runs them, side by side in one run: size, exec → first 200 of GET /status
// (first boot with an empty data dir, then the median of 11 warm starts, each printed as it comes), idle RSS 5 s after
// the last start (all running at once, each executable started from a cold page cache; anonymous and file-backed
// parts), and RSS after 100 PDF labels through the worker pool, every step taking turns. Then the targets of the
// executables (first 200 within 150 ms, idle RSS at most 64 MiB; judged on the arch of this machine only) and, beside a
// bare HTTP server on the same Node, issue 35's: warm start to the first 200 at most 1.5x the bare one's, idle RSS at
// most 10 MiB more.
// Subjects: a target (`x64`, `arm64`: dist/firmware/printproxyd-linux-<target>), `<target>=FILE` (another
// build of that target, e.g. one of an older commit, for before / after), `bare:<target>` (a bare HTTP server on that
// target's own Node, bench/bare-node-http.mjs: the floor). Each runs where firmware/targets.mjs says (x64 in the Debian
// 13 root, arm64 under qemu-user: times and RSS then include the emulator and only bound the real device).
// Run: npm run firmware -- --arch x64,arm64 && node --import tsx bench/firmware.ts [subject,...]   (default bare:x64,x64)
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { callApi, tempDataDir } from '../test/helpers/daemon-process';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { shippingLabelPdf } from '../test/fixtures/pdf/barcode-pdf';
import { median, rssMiB, rssPartsMiB } from './process-memory';
// @ts-expect-error: plain ESM build script without type declarations
import { isNative, runPrefix, target, targetNode } from '../firmware/targets.mjs';

const ROOT = resolve(__dirname, '..');
const KEY = 'bench-key-0123456789';
const LABELS = 100;
const WARM_STARTS = 11;
/** An executable's warm start to the first 200 at most this many times a bare HTTP server's on the same Node. */
const TARGET_START_RATIO = 1.5;
/** An executable's idle RSS at most this many MiB above a bare HTTP server's on the same Node. */
const TARGET_RSS_ABOVE_BARE_MIB = 10;
/** An executable answers its first 200 within this many ms of exec (warm start, median), on this machine's arch. */
const TARGET_FIRST_200_MS = 150;
/** An executable's RSS 5 s after its start, in MiB, at most this, on this machine's arch. */
const TARGET_IDLE_RSS_MIB = 64;
/** Idle RSS is read this long after the last start: start-up's lazy work has settled (a fixed pause is the measurement). */
const IDLE_AFTER_MS = 5000;

interface Subject {
  target: string;
  name: string;
  binary: string;
  command: string[];
  size: number;
  /** A bare server: no printer, no labels. */
  bare: boolean;
}

interface Figures {
  firstBootMs: number;
  warmStartMs: number;
  idleRssMiB: number;
  idleAnonMiB: number;
  idleFileMiB: number;
  after100RssMiB: number;
  labelsPerSecond: number;
}

function freePort(): Promise<number> {
  return new Promise((ok) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => ok(port));
    });
  });
}

/** Starts `command` on a fresh port and polls GET /status every 2 ms; resolves with the process and ms to the first 200. */
async function boot(command: string[], dataDir: string): Promise<{ proc: ChildProcess; ms: number; baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const args = ['--data-dir', dataDir, '--host', '127.0.0.1', '--port', String(port), '--no-https', '--no-mdns', '--log-level', 'warn'];
  const start = performance.now();
  const proc = spawn(command[0], [...command.slice(1), ...args], { env: { ...process.env, PRINTPROXY_API_KEY: KEY }, stdio: 'ignore' });
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${command.join(' ')} exited with ${proc.exitCode}`);
    const status = await callApi(baseUrl, KEY, 'GET', '/status').then((r) => r.status, () => 0);
    if (status === 200) return { proc, ms: performance.now() - start, baseUrl };
    await new Promise((r) => setTimeout(r, 2));
  }
}

function stop(proc: ChildProcess): Promise<void> {
  return new Promise((ok) => {
    proc.once('exit', () => ok());
    proc.kill('SIGTERM');
  });
}

/**
 * Drops `file` from the page cache, so each executable starts cold, as after power-up. Needed for a fair RSS: with large
 * folios in the page cache (Linux 6.18 here, ext4), how a file came into the cache (written, copied, exec'd) changes how
 * much of it a process maps, by 15 MiB for the same 124 MB executable.
 */
function dropFromPageCache(file: string): void {
  execFileSync('sync', [file]);
  execFileSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
}

/** One running warm daemon per subject, with a printer on its own emulator. */
interface Running {
  proc: ChildProcess;
  baseUrl: string;
  printerPath: string;
  emulator: ZplPrinterEmulator;
}

/** Measures every subject, interleaved step by step, so load on this machine falls on all of them alike. */
async function measureAll(list: Subject[], pdf: Uint8Array): Promise<Figures[]> {
  const dataDirs = list.map(() => tempDataDir());
  for (const subject of list) dropFromPageCache(subject.binary);
  const firstMs: number[] = [];
  for (const [i, subject] of list.entries()) {
    const first = await boot(subject.command, dataDirs[i]);
    firstMs.push(first.ms);
    console.log(`first boot ${subject.target}${subject.bare ? ' (bare)' : ''}: ${first.ms.toFixed(0)} ms`);
    await stop(first.proc);
  }
  const warmMs: number[][] = list.map(() => []);
  let running: Array<{ proc: ChildProcess; baseUrl: string }> = [];
  for (let round = 0; round < WARM_STARTS; round += 1) {
    await Promise.all(running.map((r) => stop(r.proc)));
    running = [];
    for (const [i, subject] of list.entries()) {
      const warm = await boot(subject.command, dataDirs[i]);
      warmMs[i].push(warm.ms);
      running.push(warm);
    }
    console.log(`warm start ${round + 1}/${WARM_STARTS}: ${list.map((s, i) => `${label(s)} ${warmMs[i][round].toFixed(0)} ms`).join(', ')}`);
  }
  // idle means after start-up's lazy work settles: a fixed pause is the measurement, not a wait for a condition
  await new Promise((r) => setTimeout(r, IDLE_AFTER_MS));
  const idle = running.map((r) => rssPartsMiB(r.proc.pid!));
  console.log(`idle RSS ${IDLE_AFTER_MS / 1000} s after start: ${list.map((s, i) => `${label(s)} ${idle[i].rss.toFixed(1)} MiB (anon ${idle[i].anon.toFixed(1)}, file ${idle[i].file.toFixed(1)})`).join(', ')}`);
  const bare = list.map((s) => s.bare);
  await Promise.all(running.filter((_, i) => bare[i]).map((r) => stop(r.proc)));
  const daemons = await Promise.all(running.filter((_, i) => !bare[i]).map((r) => withPrinter(r)));
  const labelMs = await printInterleaved(daemons, pdf);
  const after = daemons.map((d) => rssMiB(d.proc.pid!));
  await Promise.all(daemons.map(async (d) => {
    await stop(d.proc);
    await d.emulator.stop();
  }));
  let next = 0;
  return list.map((_, i) => {
    const k = bare[i] ? -1 : next++;
    const labels = k < 0 ? { after100RssMiB: NaN, labelsPerSecond: NaN } : { after100RssMiB: after[k], labelsPerSecond: LABELS / (labelMs[k] / 1000) };
    return { firstBootMs: firstMs[i], warmStartMs: median(warmMs[i]), idleRssMiB: idle[i].rss, idleAnonMiB: idle[i].anon, idleFileMiB: idle[i].file, ...labels };
  });
}

function label(subject: Subject): string {
  return subject.bare ? `bare:${subject.target}` : subject.binary.endsWith(`printproxyd-linux-${subject.target}`) && subject.binary.startsWith(join(ROOT, 'dist')) ? subject.target : `${subject.target}=${subject.binary}`;
}

async function withPrinter(r: { proc: ChildProcess; baseUrl: string }): Promise<Running> {
  const emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  const added = await callApi(r.baseUrl, KEY, 'POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  return { ...r, emulator, printerPath: added.body.result.content.path };
}

/** Prints LABELS labels on each daemon, one at a time, in batches of 10 taking turns; total ms per daemon. */
async function printInterleaved(daemons: Running[], pdf: Uint8Array): Promise<number[]> {
  const body = { contentType: 'pdf_base64', content: Buffer.from(pdf).toString('base64'), wait: true };
  const totals = daemons.map(() => 0);
  for (let batch = 0; batch < LABELS / 10; batch += 1) {
    for (const [i, d] of daemons.entries()) {
      const started = performance.now();
      for (let n = 0; n < 10; n += 1) {
        const res = await callApi(d.baseUrl, KEY, 'POST', `/print/${d.printerPath}`, { body });
        if (res.status !== 200) throw new Error(`label ${batch * 10 + n}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
      }
      totals[i] += performance.now() - started;
    }
  }
  return totals;
}

/** A subject from its spec: `<target>`, `<target>=FILE` or `bare:<target>` (see the head of this file). */
function subjects(specs: string[]): Subject[] {
  return specs.map((spec) => {
    const bare = spec.startsWith('bare:');
    const [name, file] = (bare ? spec.slice(5) : spec).split('=');
    const t = target(name) as { version: string; abi: string };
    const where = isNative(name) ? '' : ', qemu';
    if (bare) {
      const node = targetNode(name) as string;
      const script = join(ROOT, 'bench', 'bare-node-http.mjs');
      return { target: name, name: `bare Node ${t.version} HTTP server (${name}${where})`, binary: node, command: [...(runPrefix(name) as string[]), node, script], size: statSync(node).size, bare };
    }
    const binary = resolve(file ?? join(ROOT, 'dist', 'firmware', `printproxyd-linux-${name}`));
    if (!existsSync(binary)) throw new Error(`${binary} is missing: npm run firmware -- --arch ${name}`);
    return { target: name, name: `${file ? binary : `printproxyd-linux-${name}`} (Node ${t.version}, uWS ABI ${t.abi}${where})`, binary, command: [...(runPrefix(name) as string[]), binary], size: statSync(binary).size, bare };
  });
}

/** Each executable measured in this run beside the bare server of its target, as [bare, executable] pairs. */
function pairs(rows: Array<Subject & Figures>): Array<[Subject & Figures, Subject & Figures]> {
  const found: Array<[Subject & Figures, Subject & Figures]> = [];
  for (const bare of rows.filter((r) => r.bare)) {
    for (const current of rows.filter((r) => !r.bare && r.target === bare.target)) found.push([bare, current]);
  }
  return found;
}

function ratioLine(label: string, ratio: number, limit: number): string {
  return `${label} ${ratio.toFixed(3)}x (target ≤ ${limit.toFixed(2)}x: ${ratio <= limit ? 'met' : 'MISSED'})`;
}

/** Whether `r` meets the start-up targets; only executables of this machine's arch are judged (qemu only bounds a board). */
function targetLine(r: Subject & Figures): string {
  if (r.bare) return '';
  if (!isNative(r.target)) return ' [under qemu: not judged]';
  const fast = r.warmStartMs <= TARGET_FIRST_200_MS;
  const small = r.idleRssMiB <= TARGET_IDLE_RSS_MIB;
  return ` [first 200 ≤ ${TARGET_FIRST_200_MS} ms: ${fast ? 'met' : 'MISSED'}; idle RSS ≤ ${TARGET_IDLE_RSS_MIB} MiB: ${small ? 'met' : 'MISSED'}]`;
}

async function main(): Promise<void> {
  const specs = (process.argv[2] ?? 'bare:x64,x64').split(',');
  const pdf = await shippingLabelPdf();
  const list = subjects(specs);
  console.log(`load average ${loadAverage()} (${os.availableParallelism()} CPUs)`);
  const figures = await measureAll(list, pdf);
  const rows: Array<Subject & Figures> = list.map((subject, i) => ({ ...subject, ...figures[i] }));
  for (const r of rows) {
    const labels = r.bare ? '' : `, ${r.after100RssMiB.toFixed(1)} MiB after ${LABELS} PDF labels (${r.labelsPerSecond.toFixed(1)} labels/s, wait: true, one at a time)`;
    console.log(
      `${r.name}: ${(r.size / 1e6).toFixed(1)} MB; exec → first 200: ${r.firstBootMs.toFixed(0)} ms first boot, ${r.warmStartMs.toFixed(0)} ms warm (median of ${WARM_STARTS}); ` +
        `RSS ${r.idleRssMiB.toFixed(1)} MiB idle at ${IDLE_AFTER_MS / 1000} s (anon ${r.idleAnonMiB.toFixed(1)}, file ${r.idleFileMiB.toFixed(1)})${labels}${targetLine(r)}`,
    );
  }
  console.log(`load average ${loadAverage()}`);
  for (const [bare, current] of pairs(rows)) {
    const above = current.idleRssMiB - bare.idleRssMiB;
    console.log(
      `${label(current)} / bare Node HTTP server (same Node): ${ratioLine('warm start', current.warmStartMs / bare.warmStartMs, TARGET_START_RATIO)}; ` +
        `first boot ${(current.firstBootMs / bare.firstBootMs).toFixed(2)}x; idle RSS +${above.toFixed(1)} MiB (target ≤ +${TARGET_RSS_ABOVE_BARE_MIB} MiB: ${above <= TARGET_RSS_ABOVE_BARE_MIB ? 'met' : 'MISSED'})`,
    );
  }
}

function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(' ');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
