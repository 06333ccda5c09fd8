// The web console on this machine: navigation → signed-in Printers table of 10 printers in headless Chromium, and the
// bundled daemon's idle RSS with and without the console. Run: npm run build && node --import tsx bench/console.ts [loads]
import { readFileSync } from 'node:fs';
import type { BrowserContext } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser';
import { startDaemon, type DaemonHandle } from '../test/helpers/daemon-process';

const LOADS = Number(process.argv[2] ?? 20);
const PRINTERS = 10;
const KEY_NAME = 'printproxyd.apiKey';

/** Milliseconds from navigation start to the moment the 10th printer row is in the page, measured in the page. */
const ROWS_READY = `
  new MutationObserver((_, observer) => {
    if (document.querySelectorAll('table.printers tbody tr[data-path]').length >= ${PRINTERS}) {
      window.tableReadyMs = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });`;

async function withPrinters(): Promise<DaemonHandle> {
  const daemon = await startDaemon({ entry: 'dist/printproxyd.cjs' });
  for (let i = 0; i < PRINTERS; i += 1) {
    // loopback addresses where nothing listens: status probes stay on this machine and fail fast
    await daemon.api('POST', '/printers', { body: { connection: { type: 'network', host: `127.0.9.${i + 1}`, protocol: 'tcp' }, content: 'zpl', model: `Bench ${i + 1}`, tags: ['bench'] } });
  }
  return daemon;
}

/** One load of /printers, signed in (key remembered), in a fresh tab; `cold` clears the HTTP cache first. */
async function loadTable(browser: BrowserContext, baseUrl: string, key: string, cold: boolean): Promise<number> {
  const page = await browser.newPage();
  if (cold) {
    const cdp = await browser.newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
  }
  await page.addInitScript(ROWS_READY);
  await page.addInitScript(`localStorage.setItem('${KEY_NAME}', ${JSON.stringify(key)})`);
  await page.goto(`${baseUrl}/printers`);
  // a function, not a string: the page's CSP forbids eval
  await page.waitForFunction(() => (globalThis as { tableReadyMs?: number }).tableReadyMs !== undefined);
  const ms = await page.evaluate<number>('window.tableReadyMs');
  if (process.env.BENCH_DEBUG) console.log(await page.evaluate<string>(`JSON.stringify({ ...performance.getEntriesByType('navigation')[0].toJSON(), resources: performance.getEntriesByType('resource').map((r) => [r.name.slice(-24), Math.round(r.startTime), Math.round(r.responseEnd)]) , ready: window.tableReadyMs })`));
  await page.close();
  return ms;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function rssMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}

/** Idle RSS after start and one GET /status (and, with `page`, after serving the console once), median of 5 samples 1 s apart. */
async function idleRss(args: string[], browser: BrowserContext | null): Promise<number> {
  const daemon = await startDaemon({ entry: 'dist/printproxyd.cjs', args });
  await daemon.api('GET', '/status');
  if (browser) await loadTable(browser, daemon.baseUrl, daemon.apiKey, true).catch(() => 0);
  const samples: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    await new Promise((r) => setTimeout(r, 1000));
    samples.push(rssMiB(daemon.proc.pid!));
  }
  await daemon.stop();
  return samples.sort((a, b) => a - b)[2];
}

async function main(): Promise<void> {
  const browser = await launchChromium();
  const daemon = await withPrinters();
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < LOADS; i += 1) {
    cold.push(await loadTable(browser, daemon.baseUrl, daemon.apiKey, true));
    warm.push(await loadTable(browser, daemon.baseUrl, daemon.apiKey, false));
  }
  await daemon.stop();
  for (const [name, times] of [['empty cache', cold], ['cached assets', warm]] as const) {
    const sorted = [...times].sort((a, b) => a - b);
    console.log(`navigation → signed-in Printers table of ${PRINTERS}, ${name}: p50 ${quantile(sorted, 0.5).toFixed(0)} ms, p95 ${quantile(sorted, 0.95).toFixed(0)} ms over ${LOADS} loads (target < 300 ms)`);
  }
  const without = await idleRss(['--no-console'], null);
  const withIdle = await idleRss([], null);
  const withServed = await idleRss([], browser);
  await browser.close();
  console.log(`idle RSS of the bundle: ${without.toFixed(1)} MiB without the console, ${withIdle.toFixed(1)} MiB with it (+${(withIdle - without).toFixed(1)}), ${withServed.toFixed(1)} MiB after serving it once (+${(withServed - without).toFixed(1)}; target < 5 MiB more)`);
}

void main();
