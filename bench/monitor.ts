// The background printer monitor at idle: daemon CPU and ~HS probes over a quiet window with 10 emulated ZPL printers,
// first with nobody listening (the monitor must probe nothing), then with one client subscribed to printer.status, then
// with one that asks for status every 2 s as the web console does.
// Run: npm run build && node --import tsx bench/monitor.ts [seconds-per-window]
import { existsSync } from 'node:fs';
import { startDaemon, type DaemonHandle } from '../test/helpers/daemon-process';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { connectWs, isSocket } from '../test/http/ws-test-client';
import { cpuMs } from './process-cpu';

const seconds = Number(process.argv[2] ?? 30);

async function window(d: DaemonHandle, emulators: ZplPrinterEmulator[]): Promise<{ cpuPercent: number; probes: number }> {
  const queries = () => emulators.reduce((n, e) => n + e.statusQueries, 0);
  const [cpu0, q0] = [cpuMs(d.proc.pid!), queries()];
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return { cpuPercent: ((cpuMs(d.proc.pid!) - cpu0) / 1000 / seconds) * 100, probes: queries() - q0 };
}

async function main(): Promise<void> {
  const entry = existsSync('dist/printproxyd.cjs') ? 'dist/printproxyd.cjs' : undefined;
  const d = await startDaemon({ entry });
  const emulators = Array.from({ length: 10 }, () => new ZplPrinterEmulator());
  for (const e of emulators) {
    const port = await e.start();
    await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  }
  // let the adds and their first probes settle
  await new Promise((r) => setTimeout(r, 3000));
  const idle = await window(d, emulators);
  const ws = await connectWs(d.port, '/api/v1/events?types=printer.status', { 'X-API-Key': d.apiKey });
  if (!isSocket(ws)) throw new Error(`upgrade refused: ${ws.status}`);
  const watched = await window(d, emulators);
  ws.close(1000);
  await ws.closed();
  // as the web console asks: every 2 s
  const fast = await connectWs(d.port, '/api/v1/events?types=printer.status&statusIntervalMs=2000', { 'X-API-Key': d.apiKey });
  if (!isSocket(fast)) throw new Error(`upgrade refused: ${fast.status}`);
  const console2s = await window(d, emulators);
  fast.close(1000);
  console.log(`entry: ${entry ?? 'src/main.ts (tsx)'}; 10 emulated ZPL printers, ${seconds} s windows, default monitor interval (5 s per printer)`);
  console.log('| window | daemon CPU | ~HS probes |');
  console.log('|---|---|---|');
  console.log(`| nobody listening | ${idle.cpuPercent.toFixed(2)} % | ${idle.probes} |`);
  console.log(`| one client on printer.status | ${watched.cpuPercent.toFixed(2)} % | ${watched.probes} |`);
  console.log(`| one client on printer.status asking statusIntervalMs=2000 (as the web console) | ${console2s.cpuPercent.toFixed(2)} % | ${console2s.probes} |`);
  await d.stop();
  await Promise.all(emulators.map((e) => e.stop()));
}

void main();
