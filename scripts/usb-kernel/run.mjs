// Runs test/usb-kernel/*.guest.ts inside a qemu guest with a real kernel USB stack (dummy_hcd, the printer gadget
// function, usblp): boots the installed Debian kernel with a cached initramfs, shares the host's root read-only over
// 9p, and streams the tests' TAP output back from the serial console; exits with their status. The tests run on the
// shipped runtime, like the host suite: the x64 executable's Node 24 in the Debian 13 test root (scripts/shipped-runtime.mjs),
// which the guest enters with the repository, its node_modules and its .cache bound in at the same paths.
// Usage: node scripts/usb-kernel/run.mjs [path filters...]
// Boots twice: with udevd for every file, then
// without udevd for the *hotplug* files (both modes of src/usb/hotplug-mode.ts).
// Env: USB_KERNEL_EXEC='<command>' runs that instead of the tests (to look around); USB_KERNEL_UDEVD=0 (or 1) boots once, without (with) udevd; USB_KERNEL_SMP (2), USB_KERNEL_MEM_MB (1024), USB_KERNEL_CPU (Nehalem: under qemu's default qemu64 model, Node's V8 crashes at random, SIGSEGV, SIGTRAP, or wasm 'unreachable' and 'out of bounds' in zxing), USB_KERNEL_LIMIT_S (1800: a hang guard; the suite takes about 10 min alone), USB_KERNEL_TCG_THREAD (single: with multi-threaded TCG, V8 in the guest crashes every few runs).
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { findKernel, initramfs } from './initramfs.mjs';
import { testRoot } from '../shipped-runtime.mjs';
import { targetNode } from '../../firmware/targets.mjs';

const ROOT = resolve(import.meta.dirname, '..', '..');
const CACHE = join(ROOT, '.cache', 'usb-kernel');
const TESTS = join(ROOT, 'test', 'usb-kernel');

function main() {
  const filters = process.argv.slice(2);
  const files = readdirSync(TESTS)
    .filter((f) => f.endsWith('.guest.ts'))
    .map((f) => relative(ROOT, join(TESTS, f)))
    .filter((f) => filters.length === 0 || filters.some((p) => f.includes(p)));
  if (files.length === 0) {
    console.error('no test/usb-kernel/*.guest.ts file matched');
    process.exit(1);
  }
  try {
    execFileSync('which', ['qemu-system-x86_64'], { stdio: 'ignore' });
  } catch {
    console.error('qemu-system-x86_64 is missing: apt-get install qemu-system-x86');
    process.exit(1);
  }
  const kernel = findKernel();
  const started = Date.now();
  const ramfs = initramfs(kernel, join(import.meta.dirname, 'init.sh'), CACHE);
  console.log(`# usb-kernel: kernel ${kernel.version}, initramfs ${ramfs.built ? 'built' : 'cached'} in ${Date.now() - started} ms (${ramfs.modules.map((m) => m.name).join(' ')})`);
  mkdirSync(CACHE, { recursive: true });
  const shipped = shippedRoot();
  void runPasses(passes(files), kernel, ramfs, shipped).then((code) => process.exit(code));
}

/**
 * The Debian 13 test root (made when missing) as the host sees it, the folders bound into it at their own paths (the
 * repository, and the real folders of node_modules and .cache when they are links out of it; their mount points made
 * here, as the guest sees the root read-only), and the Node that runs the tests there.
 */
function shippedRoot() {
  const dir = realpathSync(testRoot());
  const real = [ROOT, realpathSync(join(ROOT, 'node_modules')), realpathSync(join(ROOT, '.cache'))];
  const binds = [...new Set(real)].filter((path) => path === ROOT || !path.startsWith(`${ROOT}/`));
  for (const path of binds) mkdirSync(join(dir, path), { recursive: true });
  return { dir, binds, node: targetNode('x64') };
}

/**
 * The guest boots once per pass: with udevd for every file, then without udevd for the hotplug files, which prove
 * both modes (src/usb/hotplug-mode.ts). USB_KERNEL_UDEVD=0 or =1 runs one pass in that mode only.
 */
function passes(files) {
  const set = process.env.USB_KERNEL_UDEVD;
  if (set !== undefined) return [{ udevd: set !== '0', files }];
  const hotplug = files.filter((f) => f.includes('hotplug'));
  // every pass on one TCG thread: under multi-threaded TCG, V8 in the guest crashes every few runs (SIGTRAP, SIGSEGV,
  // SIGILL), which once ran the usblp probes' own boot and failed CI. Their event-loop stall figure is printed, not
  // asserted, so the one-thread artefact (the other vCPU's turn stalls the daemon) only colours that figure
  return [
    { udevd: true, files },
    ...(hotplug.length > 0 ? [{ udevd: false, files: hotplug }] : []),
  ].filter((p) => p.files.length > 0);
}

async function runPasses(list, kernel, ramfs, shipped) {
  let worst = 0;
  for (const pass of list) {
    console.log(`# usb-kernel: boot ${pass.udevd ? 'with' : 'without'} udevd: ${pass.files.join(' ')}`);
    const code = await boot(pass, kernel, ramfs, shipped);
    if (code !== 0) worst = code;
  }
  return worst;
}

/** Boots the guest once to run `pass.files`; resolves with their exit status (1 when the guest ends without one). */
function boot(pass, kernel, ramfs, shipped) {
  const runScript = join(CACHE, `run-${process.pid}-${pass.udevd ? 'udevd' : 'no-udevd'}.sh`);
  writeFileSync(runScript, guestScript(pass.files, pass.udevd, shipped.node));
  const smp = process.env.USB_KERNEL_SMP ?? '2';
  const args = [
    '-nographic', '-no-reboot',
    '-m', process.env.USB_KERNEL_MEM_MB ?? '1024',
    // V8 in the guest: under qemu64 (no SSSE3/SSE4.1) zxing's wasm trapped after two reads; under Nehalem with
    // multi-threaded TCG it still crashed within 30; Nehalem on one TCG thread ran 60 clean
    '-cpu', process.env.USB_KERNEL_CPU ?? 'Nehalem',
    // one host thread runs both vCPUs: under multi-threaded TCG, V8 crashed in the guest (a SIGTRAP or SIGSEGV within
    // 30 zxing reads, every run; none in 30 with one thread), ~1.6x slower
    '-smp', smp, '-accel', `tcg,thread=${process.env.USB_KERNEL_TCG_THREAD ?? 'single'}`,
    '-kernel', kernel.image, '-initrd', ramfs.path,
    '-append', `console=ttyS0 quiet loglevel=3 oops=panic panic=-1 ppd.run=${runScript} ppd.newroot=${shipped.dir} ppd.binds=${shipped.binds.join(',')}`,
    '-virtfs', 'local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap',
    '-nic', 'none',
  ];
  const bootStart = Date.now();
  let readyAt = 0;
  let code = null;
  const qemu = spawn('qemu-system-x86_64', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const limitS = Number(process.env.USB_KERNEL_LIMIT_S ?? 1800);
  const limit = setTimeout(() => {
    console.error(`# usb-kernel: no exit within ${limitS} s; stopping the guest`);
    qemu.kill('SIGTERM');
  }, limitS * 1000);
  createInterface({ input: qemu.stdout }).on('line', (raw) => {
    const line = raw.replace(/\r/g, '');
    const marker = /@@usb-kernel (\w+) ?(.*)$/.exec(line);
    if (!marker) return void process.stdout.write(line + '\n');
    if (marker[1] === 'ready') {
      readyAt = Date.now();
      console.log(`# usb-kernel: guest booted in ${readyAt - bootStart} ms (guest uptime ${marker[2]} s)`);
    } else if (marker[1] === 'exit') {
      code = Number(marker[2]);
      console.log(`# usb-kernel: suite ran in ${Date.now() - readyAt} ms, exit status ${code}`);
    } else {
      console.log(`# usb-kernel: ${marker[1]} ${marker[2]}`);
    }
  });
  return new Promise((resolve) => {
    qemu.on('exit', (status, signal) => {
      clearTimeout(limit);
      rmSync(runScript, { force: true });
      if (code === null) console.error(`# usb-kernel: the guest ended without reporting (qemu ${signal ?? status})`);
      resolve(code ?? 1);
    });
  });
}

/** The script the guest runs chrooted in the test root: udevd (unless told not), then node:test on `files` with `node`. */
function guestScript(files, udevd, node) {
  return [
    'export HOME=/tmp PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    // udevadm refuses to act in a chroot unless told
    `export SYSTEMD_IGNORE_CHROOT=1 USB_KERNEL_GUEST=1 USB_KERNEL_UDEVD=${udevd ? 1 : 0}`,
    `cd ${ROOT}`,
    udevd ? '[ -x /lib/systemd/systemd-udevd ] && /lib/systemd/systemd-udevd --daemon && udevadm trigger --action=add && udevadm settle' : ': no udevd',
    process.env.USB_KERNEL_EXEC ? `exec ${process.env.USB_KERNEL_EXEC}` : `exec ${node} --import tsx --test --test-reporter=tap --test-concurrency=1 --test-timeout=${process.env.USB_KERNEL_TEST_TIMEOUT_MS ?? 300000} ${files.join(' ')}`,
    '',
  ].join('\n');
}

main();
