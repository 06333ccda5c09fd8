// The programs the image build runs on this machine, from Debian's packages: installed when missing (as root), or
// named with the command that installs them.
import { execFileSync, spawnSync } from 'node:child_process';

/** Command → the Debian package that has it; `only` limits a tool to boards with (`grub`) or without a GRUB loader. */
const TOOLS = [
  { command: 'debootstrap', pkg: 'debootstrap' },
  { command: 'genimage', pkg: 'genimage' },
  { command: 'mkfs.ext4', pkg: 'e2fsprogs' },
  { command: 'mkfs.vfat', pkg: 'dosfstools' },
  { command: 'mcopy', pkg: 'mtools' },
  { command: 'depmod', pkg: 'kmod' },
  { command: 'cpio', pkg: 'cpio' },
  { command: 'xz', pkg: 'xz-utils' },
  { command: 'openssl', pkg: 'openssl' },
  // the update bundle: RAUC packs the root into a squashfs and signs it
  { command: 'rauc', pkg: 'rauc' },
  { command: 'mksquashfs', pkg: 'squashfs-tools' },
  { command: 'grub-editenv', pkg: 'grub-common', only: 'grub' },
  { command: 'mkimage', pkg: 'u-boot-tools', only: 'uboot' },
  { command: 'mkenvimage', pkg: 'u-boot-tools', only: 'uboot' },
];

/** True when `command` is on the PATH (or in /sbin, /usr/sbin). */
export function hasCommand(command) {
  return spawnSync('sh', ['-c', `PATH="$PATH:/sbin:/usr/sbin" command -v "$1"`, 'sh', command], { stdio: 'ignore' }).status === 0;
}

/** Installs the missing tools of board `b` (root only; otherwise throws naming them and the command). */
export function ensureHostTools(b) {
  const missing = TOOLS.filter((t) => (!t.only || (t.only === 'grub') === b.grub) && !hasCommand(t.command));
  const packages = [...new Set(missing.map((t) => t.pkg))];
  installPackages(packages, `to build the ${b.name} image`);
}

/** Installs Debian `packages` when any are given, saying which and why (`purpose`); throws when not root. */
export function installPackages(packages, purpose) {
  if (packages.length === 0) return;
  if (process.getuid?.() !== 0) throw new Error(`missing Debian packages ${purpose}: sudo apt-get install ${packages.join(' ')}`);
  console.log(`image: installing Debian packages ${purpose}: ${packages.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', INITRD: 'No' };
  // a mirror mid-sync can fail one index file; the install fails loudly if a package is really missing
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env });
}

/** Runs a program; throws with its output when it fails. `capture`: returns its stdout. */
export function run(program, args, { env = process.env, capture = false, cwd } = {}) {
  const result = spawnSync(program, args, { env: { ...env, PATH: `${env.PATH ?? ''}:/sbin:/usr/sbin` }, cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-30).join('\n');
    throw new Error(`${program} ${args.join(' ')} failed (${result.error?.message ?? `exit ${result.status}`}):\n${output}`);
  }
  return capture ? result.stdout : '';
}
