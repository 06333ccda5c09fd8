// Runs every test/**/*.test.ts file with node:test, TypeScript loaded through tsx, once, on the runtime that ships: the x64
// executable's Node 24 (uWS 20.57) in a Debian 13 root (scripts/shipped-runtime.mjs). The executables' smoke test and the
// image's tests (HOST_ONLY) run their harness on this machine's Node: what they test carries its own Node 24 and runs where
// a device would (the root, qemu-user, the booted image).
// A full run (no filter) then runs the USB kernel guest suite (scripts/usb-kernel/run.mjs: every
// test/usb-kernel/*.guest.ts), skipped with the reason printed only when qemu or an installed kernel is missing. Prints
// how long each part took; exits non-zero when any part fails.
// usage: node scripts/run-tests.mjs [PATH-SUBSTRING...]
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { shippedNodeCommand, shippedRuntimeMissing, shippedRuntimeName } from './shipped-runtime.mjs';

/** Files whose harness runs on this machine's Node: they start the executables or the image, which carry their own Node 24. */
const HOST_ONLY = ['test/firmware/firmware-smoke.test.ts', 'test/image/'];
/** Folders with a part of their own (`npm run test:image`: the image booted under qemu), run only when a filter names them. */
const SEPARATE = ['test/image/'];

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
const files = collect('test').filter((f) => (filter.length === 0 ? !SEPARATE.some((p) => f.includes(p)) : filter.some((p) => f.includes(p))));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
// the console's browser tests save a screenshot of each page at each width here
const screenshots = resolve(process.env.PRINTPROXY_SCREENSHOT_DIR || join('.tmp', 'console-screenshots'));
console.log(`console screenshots: ${screenshots}`);
const env = { ...process.env, PRINTPROXY_SCREENSHOT_DIR: screenshots };
const failed = [];
const hostOnly = (f) => HOST_ONLY.some((p) => f.includes(p));
if (!files.every(hostOnly)) await timed('host tests on the shipped runtime', () => shippedSuite(files.filter((f) => !hostOnly(f))));
if (files.some(hostOnly)) await timed("the executables' and the image's tests", () => suite([process.execPath], files.filter(hostOnly), 'host'));
if (filter.length === 0) await timed('USB kernel guest suite', guestSuite);
for (const part of failed) console.error(`npm test: ${part} failed`);
process.exit(failed.length === 0 ? 0 : 1);

/** Runs `part` (returning an exit status), prints how long it took, and records it when it failed. */
async function timed(name, part) {
  const started = Date.now();
  console.log(`# ${name}: started`);
  const status = await part();
  console.log(`# ${name}: ${Math.round((Date.now() - started) / 1000)} s, status ${status}`);
  if (status !== 0) failed.push(name);
}

/** node:test over `list` with the Node that `node` (a command prefix ending in a node binary) starts, as `runtime`. */
function suite(node, list, runtime) {
  if (list.length === 0) return 0;
  const [program, ...leading] = node;
  // PRINTPROXY_TEST_RUNTIME: test/native/test-runtime.test.ts checks the files really run where this says
  const runEnv = { ...env, PRINTPROXY_TEST_RUNTIME: runtime };
  return spawnSync(program, [...leading, '--import', 'tsx', '--test', '--test-concurrency=2', ...list], { stdio: 'inherit', env: runEnv }).status ?? 1;
}

/** The suite on the shipped runtime; fails, saying why, where it cannot run. */
function shippedSuite(list) {
  const missing = shippedRuntimeMissing();
  if (missing) {
    console.error(`# shipped runtime: cannot run here, ${missing}`);
    return 1;
  }
  const started = Date.now();
  let node;
  try {
    node = shippedNodeCommand();
  } catch (err) {
    console.error(`# shipped runtime: its root or Node could not be made: ${err.message}`);
    return 1;
  }
  console.log(`# shipped runtime: ${shippedRuntimeName()} (root and Node ready in ${Math.round((Date.now() - started) / 1000)} s)`);
  return suite(node, list, 'shipped');
}

/** Runs the guest suite and returns its exit status; 0 after printing why when qemu or a kernel is missing. */
async function guestSuite() {
  const missing = await guestMissing();
  if (missing) {
    console.log(`# usb-kernel: SKIPPED, ${missing}`);
    return 0;
  }
  const guest = spawnSync(process.execPath, [join('scripts', 'usb-kernel', 'run.mjs')], { stdio: 'inherit' });
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
