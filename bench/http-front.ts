// What the Http1Front (before uWS 20.30 on Node 20: the development host) costs: the same
// HttpServer with and without it, side by side in one run, GET /status and a PUT of 1 MiB, req/s and server CPU.
// Run: node --import tsx bench/http-front.ts [seconds-per-round]
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { cpuMs } from './process-cpu';
import { TEST_KEY } from '../test/http/http-server-fixture';

const seconds = Number(process.argv[2] ?? 3);
const ROUNDS = 5;
const BODY = 'A'.repeat(1024 * 1024);

interface Server {
  label: string;
  port: number;
  proc: ChildProcess;
}

async function start(front: boolean): Promise<Server> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'front-server.ts')], { env: { ...process.env, FRONT: front ? '1' : '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((ok) => proc.stdout!.on('data', (d: Buffer) => {
    const m = /:(\d+)/.exec(d.toString());
    if (m) ok(Number(m[1]));
  }));
  return { label: front ? 'with front' : 'uWS alone', port, proc };
}

async function load(port: number, kind: 'get' | 'put'): Promise<{ rps: number; p99: number; total: number }> {
  const request = kind === 'get'
    ? { url: `http://127.0.0.1:${port}/api/v1/status`, method: 'GET' as const }
    : { url: `http://127.0.0.1:${port}/api/v1/upload`, method: 'PUT' as const, body: BODY, headers: { 'content-type': 'application/octet-stream' } };
  const result = await autocannon({ ...request, headers: { 'x-api-key': TEST_KEY, ...('headers' in request ? request.headers : {}) }, connections: kind === 'get' ? 32 : 4, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, total: result.requests.total };
}

async function main(): Promise<void> {
  const servers = [await start(false), await start(true)];
  console.log(`| request | ${servers.map((s) => `${s.label} req/s (median of ${ROUNDS})`).join(' | ')} | front / alone | p99 ms (${servers.map((s) => s.label).join(' / ')}) | server CPU per request (${servers.map((s) => s.label).join(' / ')}) |`);
  console.log('|---|---|---|---|---|---|');
  for (const kind of ['get', 'put'] as const) {
    const rps: number[][] = servers.map(() => []);
    const p99 = servers.map(() => 0);
    const cpu = servers.map(() => ({ ms: 0, requests: 0 }));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [i, s] of servers.entries()) {
        const before = cpuMs(s.proc.pid!);
        const r = await load(s.port, kind);
        cpu[i].ms += cpuMs(s.proc.pid!) - before;
        cpu[i].requests += r.total;
        rps[i].push(r.rps);
        p99[i] = Math.max(p99[i], r.p99);
      }
    }
    const median = rps.map((r) => [...r].sort((a, b) => a - b)[Math.floor(r.length / 2)]);
    const perRequest = cpu.map((c) => (c.ms * 1000) / c.requests);
    const label = kind === 'get' ? 'GET /status' : 'PUT 1 MiB';
    console.log(`| ${label} | ${median.map((m, i) => `${m.toFixed(0)} (${Math.min(...rps[i]).toFixed(0)}–${Math.max(...rps[i]).toFixed(0)})`).join(' | ')} | ${(median[1] / median[0]).toFixed(2)} | ${p99.join(' / ')} | ${perRequest.map((us) => `${us.toFixed(0)} µs`).join(' / ')} |`);
  }
  for (const s of servers) s.proc.kill();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
