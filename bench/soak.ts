// Soak: mixed traffic for N minutes (default 10) against the daemon as a child process and 5 emulated ZPL printers:
// wait true/false, idempotency keys, tag fan-out, PDFs, cancels, printers going paper-out and back. RSS of the daemon
// is sampled every 5 s. Prints jobs, lost jobs, duplicate labels, 5xx and RSS growth from minute 2 to the last minute.
// Run (after `npm run build`, so the daemon runs as shipped, from the bundle): scripts/in-netns.sh node --import tsx bench/soak.ts [minutes]
// [--exe EXECUTABLE [--root DEBIAN_ROOT]] (the daemon as the single executable, with its own Node, as on the device)
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { startDaemon, type DaemonHandle } from '../test/helpers/daemon-process';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { shippingLabelPdf } from '../test/fixtures/pdf/barcode-pdf';
import { DEFAULT_V8_FLAGS } from '../src/v8-tuning';
import { executableOption } from './executable-option';

const minutes = Number(process.argv[2]?.startsWith('--') ? 10 : process.argv[2] ?? 10);
const DURATION_MS = minutes * 60_000;
const PRINTERS = 5;
const CLIENTS = 4;
/** Pause between one client's operations: about 4 operations (5 jobs) a second in all, 14,000 labels an hour. */
const PACE_MS = 1000;
const RSS_EVERY_MS = 5000;
const DRAIN_LIMIT_MS = 180_000;
/** glibc malloc settings as the init script exports them (each may be overridden from this process's environment). */
const MALLOC_ENV = { MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2', MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '131072' };
const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

interface Answer {
  status: number;
  body: any;
}

/** What was asked and what must arrive: label id → the printers that must get it once, each with its job (`mayLack`: a cancel may stop it). */
interface Expected {
  /** `jobId` null: the fan-out's answer had no job for that printer. */
  targets: Array<{ printer: number; jobId: string | null }>;
  mayLack: boolean;
  /** How it was sent (for the report of a lost label). */
  kind: string;
  /** When it was accepted, ms after the clock started. */
  at: number;
}

const counts = { requests: 0, byStatus: new Map<number, number>(), jobs: 0, pdfJobs: 0, cancels: 0, cancelledPrinted: 0, idempotentRepeats: 0 };
const expected = new Map<string, Expected>();
const pendingJobs = new Set<string>();
const pdfJobIds: string[] = [];
let nextLabel = 1;
let clockStart = Date.now();

function call(d: DaemonHandle, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: d.port, method, path: `/api/v1${path}`, agent, headers: { 'X-API-Key': d.apiKey, ...(payload ? { 'Content-Type': 'application/json', 'Content-Length': payload.length } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const status = res.statusCode ?? 0;
          counts.requests += 1;
          counts.byStatus.set(status, (counts.byStatus.get(status) ?? 0) + 1);
          const text = Buffer.concat(chunks).toString();
          resolve({ status, body: text ? JSON.parse(text) : null });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function label(id: string): string {
  return `^XA^FO30,30^A0N,40,40^FDsoak-${id}^FS^FO30,90^BCN,80,Y,N,N^FD${id}^FS^XZ`;
}

function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

/** Records an accepted label; it must reach each target's printer once, unless `mayLack`. */
function accepted(id: string, targets: Expected['targets'], kind: string, mayLack = false): void {
  expected.set(id, { targets, mayLack, kind, at: Date.now() - clockStart });
  counts.jobs += targets.length;
}

async function zplJob(d: DaemonHandle, paths: string[], wait: boolean): Promise<void> {
  const index = Math.floor(Math.random() * paths.length);
  const id = String(nextLabel++);
  const res = await call(d, 'POST', `/print/${paths[index]}`, { content: label(id), contentType: 'zpl', wait });
  if (res.status === 200 || res.status === 201) {
    accepted(id, [{ printer: index, jobId: res.body.result.content.jobId }], wait ? 'wait:true' : 'wait:false');
    if (!wait) pendingJobs.add(res.body.result.content.jobId);
  }
}

async function idempotentJob(d: DaemonHandle, paths: string[]): Promise<void> {
  const index = Math.floor(Math.random() * paths.length);
  const id = String(nextLabel++);
  const body = { content: label(id), contentType: 'zpl', wait: false, idempotencyKey: `soak-key-${id}` };
  const first = await call(d, 'POST', `/print/${paths[index]}`, body);
  const again = await call(d, 'POST', `/print/${paths[index]}`, body);
  counts.idempotentRepeats += 1;
  if (first.status === 201) {
    accepted(id, [{ printer: index, jobId: first.body.result.content.jobId }], 'idempotency key');
    pendingJobs.add(first.body.result.content.jobId);
    if (again.body?.result?.content?.jobId !== first.body.result.content.jobId) console.error(`idempotency key soak-key-${id} gave a second job`);
  }
}

/** A label to both printers tagged `pair` (0 and 1); the answer's `jobs` lists one job per printer, each followed to its end. */
async function fanOut(d: DaemonHandle, paths: string[]): Promise<void> {
  const id = String(nextLabel++);
  const res = await call(d, 'POST', '/print/tag_pair', { content: label(id), contentType: 'zpl', wait: false });
  if (res.status === 200 || res.status === 201) {
    const jobs = res.body.result.content.jobs as Array<{ jobId: string; printer: string }>;
    accepted(id, [0, 1].map((printer) => ({ printer, jobId: jobs.find((j) => j.printer === paths[printer])?.jobId ?? null })), 'tag fan-out');
    for (const j of jobs) pendingJobs.add(j.jobId);
  }
}

async function pdfJob(d: DaemonHandle, paths: string[], pdf: string): Promise<void> {
  const res = await call(d, 'POST', `/print/${pick(paths)}`, { content: pdf, contentType: 'pdf_base64', wait: false });
  if (res.status === 201) {
    counts.pdfJobs += 1;
    pdfJobIds.push(res.body.result.content.jobId);
    pendingJobs.add(res.body.result.content.jobId);
  }
}

async function cancelledJob(d: DaemonHandle, paths: string[]): Promise<void> {
  const index = Math.floor(Math.random() * paths.length);
  const id = String(nextLabel++);
  const res = await call(d, 'POST', `/print/${paths[index]}`, { content: label(id), contentType: 'zpl', wait: false });
  if (res.status !== 201) return;
  const jobId = res.body.result.content.jobId;
  await call(d, 'DELETE', `/jobs/${jobId}`);
  counts.cancels += 1;
  accepted(id, [{ printer: index, jobId }], 'cancelled', true);
  pendingJobs.add(jobId);
}

async function client(d: DaemonHandle, paths: string[], pdf: string, until: number): Promise<void> {
  while (Date.now() < until) {
    const roll = Math.random();
    if (roll < 0.35) await zplJob(d, paths, true);
    else if (roll < 0.6) await zplJob(d, paths, false);
    else if (roll < 0.7) await idempotentJob(d, paths);
    else if (roll < 0.8) await fanOut(d, paths);
    else if (roll < 0.9) await pdfJob(d, paths, pdf);
    else await cancelledJob(d, paths);
    await new Promise((resolve) => setTimeout(resolve, PACE_MS));
  }
}

/** Every 20 s one printer runs out of paper for 5 to 10 s. */
async function weather(emulators: ZplPrinterEmulator[], until: number): Promise<void> {
  while (Date.now() < until - 15_000) {
    await new Promise((resolve) => setTimeout(resolve, 20_000));
    const e = pick(emulators);
    e.state.paperOut = true;
    await new Promise((resolve) => setTimeout(resolve, 5000 + Math.random() * 5000));
    e.state.paperOut = false;
  }
}

/** Resident memory of a process in MiB: all of it, its anonymous part (heap, stacks), and its file-backed part (code paged in from the executable and libraries, which the kernel can drop and read again). */
function rssMiB(pid: number): { mib: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
  return { mib: field('VmRSS'), anon: field('RssAnon'), file: field('RssFile') + field('RssShmem') };
}

/**
 * Resident KiB of the daemon by kind of mapping (from /proc/PID/smaps): the brk heap, wasm memories (anonymous
 * reservations of 1 GiB or more), malloc arenas (anonymous, within a 64 MiB-aligned reservation), other anonymous
 * mappings (V8's heap pages, thread stacks), and each file-backed mapping by name. Shows where RSS growth sits.
 */
function residentByKind(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let kind = '';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const size = Number(BigInt(`0x${head[2]}`) - BigInt(`0x${head[1]}`));
      const name = head[3].trim();
      const arena = Number(BigInt(`0x${head[1]}`) % BigInt(64 << 20)) + size <= 64 << 20 && size <= 64 << 20 && size >= 128 << 10;
      kind = name === '[heap]' ? 'brk heap' : name.startsWith('/') ? `file ${name.split('/').pop()}` : name ? name : size >= 1 << 30 ? 'anon >= 1 GiB (wasm)' : arena ? 'anon arena-like' : 'anon other';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out.set(kind, (out.get(kind) ?? 0) + Number(rss[1]));
  }
  return out;
}

/** The kinds whose resident KiB changed most between two residentByKind snapshots, as `kind +N KiB`. */
function residentGrowth(before: Map<string, number>, after: Map<string, number>): string {
  const kinds = new Set([...before.keys(), ...after.keys()]);
  return [...kinds]
    .map((k) => [k, (after.get(k) ?? 0) - (before.get(k) ?? 0)] as const)
    .filter(([, d]) => d !== 0)
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))
    .slice(0, 8)
    .map(([k, d]) => `${k} ${d > 0 ? '+' : ''}${d} KiB`)
    .join('; ');
}

/** Waits until every wait:false job is completed or failed (polling the API), or the drain limit passes. */
async function drain(d: DaemonHandle, finals: Map<string, any>): Promise<void> {
  const deadline = Date.now() + DRAIN_LIMIT_MS;
  while (pendingJobs.size > 0 && Date.now() < deadline) {
    for (const jobId of [...pendingJobs]) {
      const res = await call(d, 'GET', `/jobs/${jobId}`);
      const job = res.body?.result?.content;
      // past the 10,000-record cap the oldest finished records are let go: polling those again would never end
      if (res.status === 404) finals.set(jobId, { state: 'no longer kept (404)' });
      else if (job?.state === 'completed' || job?.state === 'failed') finals.set(jobId, job);
      else continue;
      pendingJobs.delete(jobId);
    }
    if (pendingJobs.size > 0) await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** Waits (at most 10 s) until no emulator has a connection open: a payload is counted only once its connection closed. */
async function connectionsClosed(emulators: ZplPrinterEmulator[]): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (emulators.some((e) => e.openConnections() > 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

/** The job's record as the daemon has it now (a wait:true job was never polled), for a lost label's line. */
async function jobStory(d: DaemonHandle, jobId: string | null, finals: Map<string, any>): Promise<string> {
  if (jobId === null) return 'the answer named no job for this printer';
  const job = finals.get(jobId) ?? (await call(d, 'GET', `/jobs/${jobId}`)).body?.result?.content;
  return job ? `${jobId} ${JSON.stringify({ state: job.state, printer: job.printer, error: job.error, errorCode: job.errorCode, createdAt: job.createdAt, completedAt: job.completedAt })}` : `${jobId} not found`;
}

function received(emulators: ZplPrinterEmulator[]): Array<Map<string, number>> {
  return emulators.map((e) => {
    const seen = new Map<string, number>();
    for (const job of e.jobs()) for (const m of job.toString('latin1').matchAll(/\^FDsoak-(\d+)\^FS/g)) seen.set(m[1], (seen.get(m[1]) ?? 0) + 1);
    return seen;
  });
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

async function main(): Promise<void> {
  const emulators = Array.from({ length: PRINTERS }, () => new ZplPrinterEmulator());
  const ports = await Promise.all(emulators.map((e) => e.start()));
  const bundle = existsSync('dist/printproxyd.cjs');
  const exe = executableOption(process.argv);
  const daemonLabel = exe ? `the executable ${exe.label}` : bundle ? 'the bundle dist/printproxyd.cjs' : 'src/ with tsx (run npm run build for the bundle)';
  // the malloc settings of the device's init script (buildroot-overlay/etc/init.d/S95printproxyd)
  const d = await startDaemon({ env: { PRINTPROXY_TCP_QUERY_TIMEOUT_MS: '500', ...MALLOC_ENV }, ...(exe ? { command: exe.command } : bundle ? { entry: 'dist/printproxyd.cjs' } : {}) });
  const paths: string[] = [];
  for (const [i, port] of ports.entries()) {
    const res = await call(d, 'POST', '/printers', { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl', tags: i < 2 ? ['pair'] : [] });
    paths.push(res.body.result.content.path);
  }
  const pdf = Buffer.from(await shippingLabelPdf()).toString('base64');
  // warm-up before the clock starts: enough PDFs at once to start every render worker, so minute 2 sees the full pool
  await Promise.all(Array.from({ length: 8 }, () => pdfJob(d, paths, pdf)));
  const started = Date.now();
  clockStart = started;
  const until = started + DURATION_MS;
  const samples: Array<{ at: number; mib: number; anon: number; file: number }> = [];
  const windowMs = Math.min(60_000, DURATION_MS / 5);
  const kinds: { early?: Map<string, number>; late?: Map<string, number> } = {};
  const sampler = setInterval(() => {
    const at = Date.now() - started;
    // only while the traffic runs: the last operations and the weather's last paper-out may outlast the clock
    if (at > DURATION_MS) return;
    samples.push({ at, ...rssMiB(d.proc.pid!) });
    if (!kinds.early && at >= 2 * windowMs) kinds.early = residentByKind(d.proc.pid!);
    if (at >= DURATION_MS - RSS_EVERY_MS * 1.5) kinds.late = residentByKind(d.proc.pid!);
  }, RSS_EVERY_MS);
  await Promise.all([...Array.from({ length: CLIENTS }, () => client(d, paths, pdf, until)), weather(emulators, until)]);
  clearInterval(sampler);
  for (const e of emulators) e.state.paperOut = false;
  const finals = new Map<string, any>();
  await drain(d, finals);
  // payloads are counted from closed connections: none may still be open (a job's own connection is closed by the
  // time the daemon completes it, so this only waits for stragglers such as a last status probe)
  await connectionsClosed(emulators);

  const got = received(emulators);
  let lost = 0;
  let duplicates = 0;
  let failedAfterAcceptance = 0;
  const failures = new Map<string, number>();
  const lostLabels: string[] = [];
  for (const [id, want] of expected) {
    const cancelled = want.mayLack;
    for (const { printer, jobId } of want.targets) {
      const n = got[printer].get(id) ?? 0;
      if (n > 1) duplicates += n - 1;
      if (cancelled && n > 0) counts.cancelledPrinted += 1;
      if (n === 0 && !cancelled) {
        const job = jobId === null ? undefined : finals.get(jobId);
        if (job?.state === 'failed') {
          failedAfterAcceptance += 1;
          failures.set(job.error, (failures.get(job.error) ?? 0) + 1);
        } else {
          lost += 1;
          lostLabels.push(`label ${id} to printer ${printer} (${want.kind}, accepted at ${(want.at / 1000).toFixed(1)} s): ${await jobStory(d, jobId, finals)}`);
        }
      }
    }
  }
  const pdfCompleted = pdfJobIds.filter((j) => finals.get(j)?.state === 'completed').length;
  const fiveXx = [...counts.byStatus].filter(([s]) => s >= 500 && s !== 503).reduce((n, [, c]) => n + c, 0);
  const early = samples.filter((s) => s.at >= 2 * windowMs && s.at < 3 * windowMs);
  const late = samples.filter((s) => s.at >= DURATION_MS - windowMs);
  const growth = (part: 'mib' | 'anon' | 'file') => mean(late.map((s) => s[part])) - mean(early.map((s) => s[part]));
  await d.stop();
  await Promise.all(emulators.map((e) => e.stop()));

  console.log(`soak: ${minutes} min, daemon from ${daemonLabel}, ${PRINTERS} emulated ZPL printers, ${CLIENTS} clients pacing ${PACE_MS} ms, a printer paper-out for 5-10 s every 20 s, ${Object.entries(MALLOC_ENV).map(([k, v]) => `${k}=${v}`).join(' ')}, V8 flags ${JSON.stringify(process.env.PRINTPROXY_V8_FLAGS ?? DEFAULT_V8_FLAGS)}`);
  console.log('| measure | value |');
  console.log('|---|---|');
  console.log(`| requests | ${counts.requests} (${[...counts.byStatus].sort(([a], [b]) => a - b).map(([s, c]) => `${s}: ${c}`).join(', ')}) |`);
  console.log(`| jobs accepted (ZPL with a label id) | ${counts.jobs}, of them ${counts.cancels} cancelled at once, ${counts.idempotentRepeats} sent twice with one Idempotency-Key |`);
  console.log(`| PDF jobs accepted / completed | ${counts.pdfJobs} / ${pdfCompleted} |`);
  console.log(`| lost labels (accepted, not cancelled, never printed, not failed) | ${lost} |`);
  console.log(`| accepted then failed | ${failedAfterAcceptance}${failures.size ? ` (${[...failures].map(([e, c]) => `${c}× ${e}`).join('; ')})` : ''} |`);
  console.log(`| duplicate labels | ${duplicates} |`);
  console.log(`| cancelled jobs that had printed anyway | ${counts.cancelledPrinted} |`);
  console.log(`| jobs still unfinished after the drain | ${pendingJobs.size} |`);
  console.log(`| jobs whose record was let go before the drain read it (past the 10,000-record cap) | ${[...finals.values()].filter((f) => f.state === 'no longer kept (404)').length} |`);
  console.log(`| 5xx other than 503 | ${fiveXx} |`);
  console.log(`| 503 (printer not ready for a wait:true job; documented) | ${counts.byStatus.get(503) ?? 0} |`);
  console.log(`| RSS minute ${(2 * windowMs) / 60_000}-${(3 * windowMs) / 60_000} (mean) | ${mean(early.map((s) => s.mib)).toFixed(1)} MiB |`);
  console.log(`| RSS last ${windowMs / 60_000} min (mean) | ${mean(late.map((s) => s.mib)).toFixed(1)} MiB |`);
  console.log(`| RSS growth | ${growth('mib').toFixed(2)} MiB (anonymous ${growth('anon').toFixed(2)}, file-backed ${growth('file').toFixed(2)}) |`);
  for (const line of lostLabels.slice(0, 20)) console.log(`lost: ${line}`);
  if (kinds.early && kinds.late) console.log(`resident growth by mapping kind, minute ${(2 * windowMs) / 60_000} to the end: ${residentGrowth(kinds.early, kinds.late)}`);
  console.log(`RSS every ${RSS_EVERY_MS / 1000} s (MiB): ${samples.map((s) => s.mib.toFixed(0)).join(' ')}`);
  console.log(`anonymous RSS every ${RSS_EVERY_MS / 1000} s (MiB): ${samples.map((s) => s.anon.toFixed(0)).join(' ')}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
