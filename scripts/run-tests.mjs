// Runs every test/**/*.test.ts file with node:test, TypeScript loaded through tsx; a full run (no filter) then runs the
// USB kernel guest suite (scripts/usb-kernel/run.mjs: every test/usb-kernel/*.guest.ts), skipped with the reason printed
// only when qemu or an installed kernel is missing. Exits non-zero when either part fails.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...collect(full));
    else if (name.endsWith('.test.ts')) out.push(full);
  }
  return out;
}

const filter = process.argv.slice(2);
const files = collect('test').filter((f) => filter.length === 0 || filter.some((p) => f.includes(p)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// the console's browser tests save a screenshot of each page at each width here
const screenshots = resolve(process.env.PRINTPROXY_SCREENSHOT_DIR || join('.tmp', 'console-screenshots'));
console.log(`console screenshots: ${screenshots}`);
const env = { ...process.env, PRINTPROXY_SCREENSHOT_DIR: screenshots };
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit', env });
const hostStatus = result.status ?? 1;
const guestStatus = filter.length === 0 ? await guestSuite() : 0;
if (hostStatus !== 0) console.error(`npm test: the host tests failed (status ${hostStatus})`);
if (guestStatus !== 0) console.error(`npm test: the USB kernel guest suite failed (status ${guestStatus})`);
process.exit(hostStatus || guestStatus);

/** Runs the guest suite and returns its exit status; 0 after printing why when qemu or a kernel is missing. */
async function guestSuite() {
  const missing = await guestMissing();
  if (missing) {
    console.log(`# usb-kernel: SKIPPED, ${missing}`);
    return 0;
  }
  const started = Date.now();
  const guest = spawnSync(process.execPath, [join('scripts', 'usb-kernel', 'run.mjs')], { stdio: 'inherit' });
  console.log(`# usb-kernel: guest suite took ${Math.round((Date.now() - started) / 1000)} s in all, status ${guest.status}`);
  return guest.status ?? 1;
}

/** Why the guest cannot boot here, or null when it can. */
async function guestMissing() {
  try {
    execFileSync('which', ['qemu-system-x86_64'], { stdio: 'ignore' });
  } catch {
    return 'qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)';
  }
  const { findKernel } = await import('./usb-kernel/initramfs.mjs');
  try {
    findKernel();
  } catch (err) {
    return err.message;
  }
  return null;
}
