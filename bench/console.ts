// The web console on this machine: navigation → signed-in Printers table of 10 printers in headless Chromium, and the
// bundled daemon's idle RSS with and without the console. Run: npm run build && node --import tsx bench/console.ts [loads]
import type { BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../test/helpers/browser';
import { rssMiB } from './process-memory';
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

/** A tab signed in (key remembered) that records when the table is ready; `cold` loads clear the HTTP cache first. */
async function benchTab(browser: BrowserContext, key: string): Promise<Page> {
  const page = await browser.newPage();
  await page.addInitScript(ROWS_READY);
  await page.addInitScript(`localStorage.setItem('${KEY_NAME}', ${JSON.stringify(key)})`);
  return page;
}

/** One navigation of `page` to /printers (from the device's own page, as a reload or a typed URL would be); ms to the table. */
async function loadTable(page: Page, baseUrl: string, cold: boolean): Promise<number> {
  if (cold) await (await page.context().newCDPSession(page)).send('Network.clearBrowserCache');
  await page.goto(`${baseUrl}/printers`);
  // a function, not a string: the page's CSP forbids eval
  await page.waitForFunction(() => (globalThis as { tableReadyMs?: number }).tableReadyMs !== undefined);
  const ms = await page.evaluate<number>('window.tableReadyMs');
  if (process.env.BENCH_DEBUG) console.log(await page.evaluate<string>(`JSON.stringify({ ...performance.getEntriesByType('navigation')[0].toJSON(), resources: performance.getEntriesByType('resource').map((r) => [r.name.slice(-24), Math.round(r.startTime), Math.round(r.responseEnd)]), ready: window.tableReadyMs })`));
  return ms;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Idle RSS after start and one GET /status (and, with `page`, after serving the console once), median of 5 samples 1 s apart. */
async function idleRss(args: string[], browser: BrowserContext | null): Promise<number> {
  const daemon = await startDaemon({ entry: 'dist/printproxyd.cjs', args });
  await daemon.api('GET', '/status');
  if (browser) {
    const page = await benchTab(browser, daemon.apiKey);
    await page.goto(`${daemon.baseUrl}/printers`);
    await page.getByText('No printers yet', { exact: false }).waitFor();
    await page.close();
  }
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
  const page = await benchTab(browser, daemon.apiKey);
  await loadTable(page, daemon.baseUrl, true);
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < LOADS; i += 1) {
    cold.push(await loadTable(page, daemon.baseUrl, true));
    warm.push(await loadTable(page, daemon.baseUrl, false));
  }
  await page.close();
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
