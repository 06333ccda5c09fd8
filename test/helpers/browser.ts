// Debian's Chromium under playwright-core for console tests: a fresh profile, headless, never a downloaded browser.
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { buildConsole, writeConsole } from '../../firmware/console-build.mjs';
import { tempDir } from './temp-dir';

/** The browser the tests drive: Debian's package, which .ci/run installs. */
export const CHROMIUM = '/usr/bin/chromium';

/** The two widths every console test runs at, in CSS pixels. */
export const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: '360px', width: 360, height: 740 },
] as const;

/** One of WIDTHS. */
export type Width = (typeof WIDTHS)[number];

/** Where screenshots go: PRINTPROXY_SCREENSHOT_DIR (scripts/run-tests.mjs names it), else .tmp/console-screenshots. */
export function screenshotDir(): string {
  const dir = resolve(process.env.PRINTPROXY_SCREENSHOT_DIR || join('.tmp', 'console-screenshots'));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Builds the console into a temporary folder (for --console-dir) and returns it. */
export async function builtConsole(): Promise<string> {
  const dir = tempDir('console-build');
  writeConsole((await buildConsole()).files, dir);
  return dir;
}

/**
 * Starts headless Chromium with a new profile in a temporary folder; throws, saying how to install it, when it is missing.
 * `acceptSelfSigned` trusts any certificate (the device's self-signed one).
 */
export async function launchChromium(acceptSelfSigned = false): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM}: run apt-get install -y --no-install-recommends chromium (.ci/run does)`);
  return chromium.launchPersistentContext(tempDir('chromium-profile'), {
    executablePath: CHROMIUM,
    headless: true,
    ignoreHTTPSErrors: acceptSelfSigned,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** A new tab at `width` with empty storage for `origin`, recording every URL it requests (to check the key never is in one). */
export async function openPage(context: BrowserContext, width: Width, origin: string): Promise<{ page: Page; urls: string[] }> {
  const page = await context.newPage();
  await page.setViewportSize({ width: width.width, height: width.height });
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  page.on('websocket', (socket) => urls.push(socket.url()));
  await page.goto(origin + '/');
  await page.evaluate('localStorage.clear(); sessionStorage.clear()');
  await page.reload();
  return { page, urls };
}

/** Signs in through the form with `key` and waits for the navigation. */
export async function signIn(page: Page, key: string, remember = false): Promise<void> {
  await page.getByLabel('API key').fill(key);
  if (remember) await page.getByLabel('Remember on this browser').check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Saves a full-page screenshot as `<name>-<width>.png` in screenshotDir(). */
export async function screenshot(page: Page, name: string, width: Width): Promise<void> {
  await page.screenshot({ path: join(screenshotDir(), `${name}-${width.name}.png`), fullPage: true });
}
