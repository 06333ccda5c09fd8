// HTTP throughput of the daemon vs a bare uWS handler answering the same bytes, side by side in one run.
// Run: node --import tsx bench/http.ts [seconds-per-round]
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { callApi, startDaemon, tempDataDir } from '../test/helpers/daemon-process';

const seconds = Number(process.argv[2] ?? 5);
const urls = ['/api/v1/printers', '/api/v1/status'];

async function main(): Promise<void> {
  const daemon = await startDaemon({ entry: process.env.BENCH_ENTRY ?? "dist/printproxyd.cjs" });
  // loopback addresses where nothing listens: the status probes stay on this machine and read offline
  for (let i = 0; i < 10; i += 1) {
    await daemon.api('POST', '/printers', { body: { connection: { type: 'network', host: `127.0.9.${i + 1}`, protocol: 'tcp' }, content: 'raw', tags: ['bench'] } });
  }
  const answers: Record<string, string> = {};
  for (const url of urls) {
    const res = await callApi(daemon.baseUrl, daemon.apiKey, 'GET', url.replace('/api/v1', ''));
    answers[url] = JSON.stringify(res.body);
  }
  const file = join(tempDataDir(), 'answers.json');
  writeFileSync(file, JSON.stringify(answers));
  const bare = spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'bare-uws.ts'), file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const barePort = await new Promise<number>((ok) => bare.stdout!.on('data', (d: Buffer) => {
    const m = /:(\d+)/.exec(d.toString());
    if (m) ok(Number(m[1]));
  }));

  console.log(`| url | printproxyd req/s | bare uWS req/s | ratio | p99 ms (ours / bare) |`);
  console.log(`|---|---|---|---|---|`);
  for (const url of urls) {
    // alternate rounds so both servers see the same machine conditions
    const ours = await load(`${daemon.baseUrl}${url}`, daemon.apiKey);
    const base = await load(`http://127.0.0.1:${barePort}${url}`, daemon.apiKey);
    const ours2 = await load(`${daemon.baseUrl}${url}`, daemon.apiKey);
    const base2 = await load(`http://127.0.0.1:${barePort}${url}`, daemon.apiKey);
    const o = (ours.rps + ours2.rps) / 2;
    const b = (base.rps + base2.rps) / 2;
    console.log(`| GET ${url} | ${o.toFixed(0)} | ${b.toFixed(0)} | ${(o / b).toFixed(2)} | ${Math.max(ours.p99, ours2.p99)} / ${Math.max(base.p99, base2.p99)} |`);
  }
  bare.kill();
  await daemon.stop();
}

async function load(url: string, key: string): Promise<{ rps: number; p99: number }> {
  const result = await autocannon({ url, connections: 32, pipelining: 1, duration: seconds, headers: { 'x-api-key': key } });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

void main();
