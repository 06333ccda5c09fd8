// HTTP throughput of the x64 executable (what ships: Node 24, uWS 20.57 alone) beside a bare uWS handler on the same
// Node answering the same bytes, the ceiling, side by side in one run. The executable runs where firmware/targets.mjs says
// (x64: in the Debian 13 root), the bare server on the same Node (there too when this machine's Node has no uWS build).
// Targets (issue 35): GET /api/v1/printers at >= 0.9x bare uWS's req/s and <= 1.3x its server CPU per request.
// Run: npm run firmware -- --arch x64 && node --import tsx bench/http.ts [seconds-per-round] [target,...]
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { callApi, startDaemon, tempDataDir, type DaemonHandle } from '../test/helpers/daemon-process';
// @ts-expect-error: plain ESM build script without type declarations
import { runPrefix, target } from '../firmware/targets.mjs';
import { cpuMs } from './process-cpu';
import { daemonNode } from './daemon-node';

const ROOT = resolve(__dirname, '..');
const seconds = Number(process.argv[2] ?? 3);
const names = (process.argv[3] ?? 'x64').split(',');
const urls = ['/api/v1/printers', '/api/v1/status'];
/** Rounds per server and URL, taking turns; the median is printed (this machine is shared, so rounds vary). */
const ROUNDS = 6;

/** One server under load: its label, base URL, API key and process id. */
interface Server {
  label: string;
  baseUrl: string;
  key: string;
  pid: number;
}

async function startExecutable(name: string): Promise<DaemonHandle> {
  const binary = join(ROOT, 'dist', 'firmware', `printproxyd-linux-${name}`);
  if (!existsSync(binary)) throw new Error(`${binary} is missing: npm run firmware -- --arch ${name}`);
  const daemon = await startDaemon({ command: [...(runPrefix(name) as string[]), binary], startTimeoutMs: 60_000 });
  // loopback addresses where nothing listens: the status probes stay on this machine and read offline
  for (let i = 0; i < 10; i += 1) {
    await daemon.api('POST', '/printers', { body: { connection: { type: 'network', host: `127.0.9.${i + 1}`, protocol: 'tcp' }, content: 'raw', tags: ['bench'] } });
  }
  return daemon;
}

async function startBare(daemon: DaemonHandle): Promise<{ server: Server; stop: () => void }> {
  const answers: Record<string, string> = {};
  for (const url of urls) answers[url] = JSON.stringify((await callApi(daemon.baseUrl, daemon.apiKey, 'GET', url.replace('/api/v1', ''))).body);
  const file = join(tempDataDir(), 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const node = daemonNode();
  const bare = spawn(node[0], [...node.slice(1), '--import', 'tsx', join(__dirname, 'bare-uws.ts'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((ok) => bare.stdout!.on('data', (d: Buffer) => {
    const m = /:(\d+)/.exec(d.toString());
    if (m) ok(Number(m[1]));
  }));
  return { server: { label: `bare-uWS (same Node)`, baseUrl: `http://127.0.0.1:${port}`, key: daemon.apiKey, pid: bare.pid! }, stop: () => bare.kill() };
}

async function main(): Promise<void> {
  const daemons: DaemonHandle[] = [];
  for (const name of names) daemons.push(await startExecutable(name));
  const servers: Server[] = daemons.map((d, i) => ({ label: `${names[i]} (Node ${(target(names[i]) as { version: string }).version})`, baseUrl: d.baseUrl, key: d.apiKey, pid: d.proc.pid! }));
  const bare = await startBare(daemons[0]);
  servers.push(bare.server);

  // the ratios compare the first executable with the bare server (the last one)
  const ship = 0;
  const ceiling = servers.length - 1;
  const ratioHead = `${names[ship]} / bare uWS`;
  console.log(`| url | ${servers.map((s) => `${s.label} req/s (median of ${ROUNDS})`).join(' | ')} | ${ratioHead} | p99 ms (${servers.map((s) => s.label.split(' ')[0]).join(' / ')}) |`);
  console.log(`|---|${servers.map(() => '---|').join('')}---|---|`);
  // CPU time per request barely depends on how busy the rest of this machine is, unlike req/s
  const cpuLines: string[] = [];
  for (const url of urls) {
    const rps: number[][] = servers.map(() => []);
    const p99: number[] = servers.map(() => 0);
    const cpu = servers.map(() => ({ ms: 0, requests: 0 }));
    // rounds take turns so every server sees the same machine conditions
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [i, s] of servers.entries()) {
        const cpuBefore = cpuMs(s.pid);
        const r = await load(`${s.baseUrl}${url}`, s.key);
        cpu[i].ms += cpuMs(s.pid) - cpuBefore;
        cpu[i].requests += r.total;
        rps[i].push(r.rps);
        p99[i] = Math.max(p99[i], r.p99);
      }
    }
    const median = rps.map((r) => [...r].sort((a, b) => a - b)[Math.floor(r.length / 2)]);
    const rpsRatio = median[ship] / median[ceiling];
    const ratio = `${rpsRatio.toFixed(2)}` + (url === '/api/v1/printers' ? ` (target ≥ 0.90: ${rpsRatio >= 0.9 ? 'met' : 'MISSED'})` : '');
    const perRequest = cpu.map((c) => (c.ms * 1000) / c.requests);
    const cpuRatio = perRequest[ship] / perRequest[ceiling];
    const cpuTarget = url === '/api/v1/printers' ? ` (target ≤ 1.30: ${cpuRatio <= 1.3 ? 'met' : 'MISSED'})` : '';
    cpuLines.push(`GET ${url}: server CPU per request ${perRequest.map((us, i) => `${servers[i].label.split(' ')[0]} ${us.toFixed(1)} µs`).join(', ')}; ${ratioHead} ${cpuRatio.toFixed(2)}x${cpuTarget}`);
    console.log(`| GET ${url} | ${median.map((m, i) => `${m.toFixed(0)} (${Math.min(...rps[i]).toFixed(0)}–${Math.max(...rps[i]).toFixed(0)})`).join(' | ')} | ${ratio} | ${p99.join(' / ')} |`);
  }
  for (const line of cpuLines) console.log(line);
  bare.stop();
  for (const d of daemons) await d.stop();
}

async function load(url: string, key: string): Promise<{ rps: number; p99: number; total: number }> {
  const result = await autocannon({ url, connections: 32, pipelining: 1, duration: seconds, headers: { 'x-api-key': key } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, total: result.requests.total };
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
