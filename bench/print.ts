// Raw ZPL pass-through through the daemon (wait: true, pre-flight on) against a direct socket write plus one ~HS
// round trip to the same emulator, side by side in one run; then jobs/s over 8 emulated printers.
// Run: npm run build && node --import tsx bench/print.ts [seconds-per-task]
import { existsSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { Bench } from 'tinybench';
import { startDaemon, type DaemonHandle } from '../test/helpers/daemon-process';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';

const seconds = Number(process.argv[2] ?? 3);
const LABEL = ('^XA^FO20,20^A0N,30,30^FD' + 'x'.repeat(2000) + '^FS^XZ').slice(0, 2048);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function post(d: DaemonHandle, path: string, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: d.port, method: 'POST', path: `/api/v1/print/${path}`, agent, headers: { 'X-API-Key': d.apiKey, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 || res.statusCode === 201 ? resolve(res.statusCode) : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function get(d: DaemonHandle, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port: d.port, path: `/api/v1${path}`, agent, headers: { 'X-API-Key': d.apiKey } }, (res) => {
      res.resume();
      res.on('end', () => resolve());
    }).on('error', reject);
  });
}

function latencyOf(result: unknown): { p50: number; p99: number } {
  const latency = (result as { latency?: { p50: number; p99: number } } | undefined)?.latency;
  if (!latency) throw new Error('a bench task failed');
  return latency;
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

async function addPrinter(d: DaemonHandle, e: ZplPrinterEmulator): Promise<string> {
  const port = await e.start();
  const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  return res.body.result.content.path;
}

async function main(): Promise<void> {
  const entry = existsSync('dist/printproxyd.cjs') ? 'dist/printproxyd.cjs' : undefined;
  const d = await startDaemon({ entry });
  const emulators = Array.from({ length: 8 }, () => new ZplPrinterEmulator());
  const paths = await Promise.all(emulators.map((e) => addPrinter(d, e)));
  const body = JSON.stringify({ content: LABEL, contentType: 'zpl' });
  const port0 = Number(paths[0].split('_').pop());

  const bench = new Bench({ time: seconds * 1000, warmupTime: 500 });
  bench.add('printproxyd POST /print (wait, pre-flight)', () => post(d, paths[0], body).then(() => undefined));
  bench.add('direct ~HS + socket write', () => direct(port0));
  bench.add('HTTP floor: GET /status', () => get(d, '/status'));
  await bench.run();
  const [ours, floor, httpFloor] = bench.tasks.map((t) => latencyOf(t.result));
  console.log(`entry: ${entry ?? 'src/main.ts (tsx)'}; 2 KB ZPL label, wait: true, pre-flight on`);
  console.log('| path | p50 ms | p99 ms |');
  console.log('|---|---|---|');
  console.log(`| printproxyd | ${ours.p50.toFixed(2)} | ${ours.p99.toFixed(2)} |`);
  console.log(`| direct ~HS + write | ${floor.p50.toFixed(2)} | ${floor.p99.toFixed(2)} |`);
  console.log(`| HTTP round trip alone (GET /status) | ${httpFloor.p50.toFixed(2)} | ${httpFloor.p99.toFixed(2)} |`);
  console.log(`overhead ratio at p50: ${(ours.p50 / floor.p50).toFixed(2)}x (target <= 2x)`);

  const total = 4000;
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next < total) {
        const n = next++;
        await post(d, paths[n % 8], body);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const arrived = emulators.reduce((sum, e) => sum + e.jobs().length, 0);
  console.log(`jobs/s over 8 printers (64 clients, wait: true): ${(total / elapsed).toFixed(0)} (${total} jobs in ${elapsed.toFixed(1)} s; ${arrived} labels arrived at the printers in all, latency runs included)`);
  agent.destroy();
  await d.stop();
  await Promise.all(emulators.map((e) => e.stop()));
}

void main();
