// The single executables as the device runs them: size, exec → first 200 of GET /status (first boot with an empty
// data dir, and a warm start), idle RSS, and RSS after 100 PDF labels through the worker pool. On the host's own arch
// the bundle on the system Node (`node dist/printproxyd.cjs`) runs the same steps beside it, and the ratios are printed.
// Run: npm run build && npm run firmware -- --arch x64,arm64,armv7 && node --import tsx bench/firmware.ts [arch,...]
// Foreign arches run under qemu-user: their times and RSS include the emulator (TCG) and only bound the real device.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { callApi, tempDataDir } from '../test/helpers/daemon-process';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { shippingLabelPdf } from '../test/fixtures/pdf/barcode-pdf';
// @ts-expect-error: plain ESM build script without type declarations
import { isNative, runPrefix } from '../firmware/targets.mjs';

const ROOT = resolve(__dirname, '..');
const KEY = 'bench-key-0123456789';
const LABELS = 100;

interface Subject {
  name: string;
  command: string[];
  size: number;
}

interface Figures {
  firstBootMs: number;
  warmStartMs: number;
  idleRssMiB: number;
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

function rssMiB(proc: ChildProcess): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'))?.[1]) / 1024;
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

async function measure(subject: Subject, pdf: Uint8Array): Promise<Figures> {
  const dataDir = tempDataDir();
  const first = await boot(subject.command, dataDir);
  await stop(first.proc);
  const warm = await boot(subject.command, dataDir);
  await new Promise((r) => setTimeout(r, 3000));
  const idleRssMiB = rssMiB(warm.proc);
  const emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  const added = await callApi(warm.baseUrl, KEY, 'POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  const body = { contentType: 'pdf_base64', content: Buffer.from(pdf).toString('base64'), wait: true };
  const started = performance.now();
  for (let i = 0; i < LABELS; i += 1) {
    const res = await callApi(warm.baseUrl, KEY, 'POST', `/print/${added.body.result.content.path}`, { body });
    if (res.status !== 200) throw new Error(`label ${i}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
  }
  const labelsPerSecond = LABELS / ((performance.now() - started) / 1000);
  const after100RssMiB = rssMiB(warm.proc);
  await stop(warm.proc);
  await emulator.stop();
  return { firstBootMs: first.ms, warmStartMs: warm.ms, idleRssMiB, after100RssMiB, labelsPerSecond };
}

function subjects(arches: string[]): Subject[] {
  const list: Subject[] = [];
  for (const arch of arches) {
    const binary = join(ROOT, 'dist', 'firmware', `printproxyd-linux-${arch}`);
    if (!existsSync(binary)) throw new Error(`${binary} is missing: npm run firmware -- --arch ${arch}`);
    list.push({ name: `printproxyd-linux-${arch}${isNative(arch) ? '' : ' (qemu)'}`, command: [...(runPrefix(arch) as string[]), binary], size: statSync(binary).size });
    if (isNative(arch)) {
      const bundle = join(ROOT, 'dist', 'printproxyd.cjs');
      if (!existsSync(bundle)) throw new Error(`${bundle} is missing: npm run build`);
      list.push({ name: `node dist/printproxyd.cjs (${arch}, reference)`, command: [process.execPath, bundle], size: statSync(bundle).size });
    }
  }
  return list;
}

async function main(): Promise<void> {
  const arches = (process.argv[2] ?? (process.arch === 'arm' ? 'armv7' : process.arch)).split(',');
  const pdf = await shippingLabelPdf();
  const rows: Array<Subject & Figures> = [];
  for (const subject of subjects(arches)) {
    rows.push({ ...subject, ...(await measure(subject, pdf)) });
    const r = rows.at(-1)!;
    console.log(
      `${r.name}: ${(r.size / 1e6).toFixed(1)} MB; exec → first 200: ${r.firstBootMs.toFixed(0)} ms first boot, ${r.warmStartMs.toFixed(0)} ms warm; ` +
        `RSS ${r.idleRssMiB.toFixed(1)} MiB idle, ${r.after100RssMiB.toFixed(1)} MiB after ${LABELS} PDF labels (${r.labelsPerSecond.toFixed(1)} labels/s, wait: true, one at a time)`,
    );
  }
  const sea = rows.find((r) => r.name.startsWith('printproxyd-linux-') && !r.name.includes('qemu'));
  const ref = rows.find((r) => r.name.includes('reference'));
  if (sea && ref) {
    console.log(`ratios, single executable / bundle on system node: warm start ${(sea.warmStartMs / ref.warmStartMs).toFixed(2)}x, idle RSS ${(sea.idleRssMiB / ref.idleRssMiB).toFixed(2)}x, RSS after ${LABELS} labels ${(sea.after100RssMiB / ref.after100RssMiB).toFixed(2)}x`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
