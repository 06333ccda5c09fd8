// Idle resident memory of the bundled daemon: starts dist/printproxyd.cjs, waits, reads VmRSS.
// Run: npm run build && node --import tsx bench/rss.ts
import { readFileSync } from 'node:fs';
import { startDaemon } from '../test/helpers/daemon-process';

async function main(): Promise<void> {
  const d = await startDaemon({ entry: 'dist/printproxyd.cjs' });
  await d.api('GET', '/status');
  await new Promise((r) => setTimeout(r, 3000));
  const status = readFileSync(`/proc/${d.proc.pid}/status`, 'utf8');
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
  console.log(`idle RSS of node dist/printproxyd.cjs: ${rss.toFixed(1)} MiB`);
  await d.stop();
}

void main();
