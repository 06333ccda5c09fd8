// The stand-in image's root, assembled from a package root: what Buildroot's target tree holds before its
// post-build script runs (the overlay, the users, the executable, the kernel with its modules in /boot and
// /lib/modules), plus the initramfs that Debian's modular kernel needs to reach the root.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { moduleOrder } from '../../scripts/usb-kernel/initramfs.mjs';
import { run } from './host-tools.mjs';
import { repoRoot } from './paths.mjs';

/** What a device has no use for: package managers' data, documentation, translations, the GRUB modules (x86: built into the loader). */
const PRUNED = [
  'usr/share/doc', 'usr/share/man', 'usr/share/info', 'usr/share/locale', 'usr/share/lintian', 'usr/share/bash-completion',
  'usr/share/zsh', 'var/cache/apt', 'var/lib/apt/lists', 'usr/lib/grub', 'usr/share/grub', 'boot', 'usr/lib/modules',
];

/** BusyBox applets the overlay's scripts run, linked where Debian's packages have no program of that name. */
const APPLETS = ['init', 'awk', 'watchdog', 'udhcpc', 'syslogd', 'klogd', 'logger', 'wget', 'reboot', 'poweroff', 'halt', 'killall', 'mountpoint'];

/** The makeusers table of the Buildroot tree (board/common/users.table): the same accounts in both builds. */
const USERS_TABLE = ['buildroot/board/common/users.table', 'firmware/buildroot/users.table'].map((f) => join(repoRoot, f)).find((f) => existsSync(f));

/** Fills `target` for `board` from `packages` with the executable `app` reporting `version`. */
export function assembleTarget({ board, packages, target, app, version }) {
  rmSync(target, { recursive: true, force: true });
  run('cp', ['-a', packages.root, target]);
  for (const path of PRUNED) rmSync(join(target, path), { recursive: true, force: true });
  mkdirSync(join(target, 'boot'), { recursive: true });
  writeAccounts(target);
  linkApplets(target);
  run('cp', ['-a', `${join(repoRoot, 'buildroot-overlay')}/.`, target]);
  copyFileSync(app, join(target, 'usr', 'bin', 'printproxyd'));
  chmodSync(join(target, 'usr', 'bin', 'printproxyd'), 0o755);
  writeFileSync(join(target, 'etc', 'printproxyd-version'), `${version}\n`);
  installKernel(board, packages.kernel, target);
}

/** /etc/passwd, group and shadow: Debian's base accounts (base-passwd's masters) and the users table's. */
function writeAccounts(target) {
  const passwd = readFileSync(join(target, 'usr', 'share', 'base-passwd', 'passwd.master'), 'utf8').trim().split('\n');
  const group = readFileSync(join(target, 'usr', 'share', 'base-passwd', 'group.master'), 'utf8').trim().split('\n');
  const taken = new Set([...passwd, ...group].map((line) => Number(line.split(':')[2])));
  let next = 100;
  const free = () => {
    while (taken.has(next)) next += 1;
    taken.add(next);
    return next;
  };
  for (const line of readFileSync(USERS_TABLE, 'utf8').split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    const [name, uid, groupName, gid, , home, shell] = line.trim().split(/\s+/);
    const g = group.find((l) => l.startsWith(`${groupName}:`))?.split(':')[2] ?? String(Number(gid) > 0 ? Number(gid) : free());
    if (!group.some((l) => l.startsWith(`${groupName}:`))) group.push(`${groupName}:x:${g}:`);
    const u = Number(uid) > 0 ? Number(uid) : free();
    passwd.push(`${name}:x:${u}:${g}:${name}:${home === '-' ? '/nonexistent' : home}:${shell === '-' ? '/usr/sbin/nologin' : shell}`);
  }
  writeFileSync(join(target, 'etc', 'passwd'), `${passwd.join('\n')}\n`);
  writeFileSync(join(target, 'etc', 'group'), `${group.join('\n')}\n`);
  const shadow = passwd.map((l) => `${l.split(':')[0]}:*:20000:0:99999:7:::`);
  writeFileSync(join(target, 'etc', 'shadow'), `${shadow.join('\n')}\n`, { mode: 0o640 });
}

function linkApplets(target) {
  for (const applet of APPLETS) {
    const taken = ['usr/bin', 'usr/sbin'].some((dir) => exists(join(target, dir, applet)));
    if (!taken) symlinkSync('/usr/bin/busybox', join(target, 'usr', 'sbin', applet));
  }
}

function exists(path) {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The kernel in /boot, the modules the root loads (and their dependencies) with depmod's index, and the initramfs. */
function installKernel(board, kernel, target) {
  const { dir, version } = kernel;
  copyFileSync(join(dir, 'boot', `vmlinuz-${version}`), join(target, 'boot', board.kernelFile));
  const modulesDir = join(dir, 'usr', 'lib', 'modules', version);
  const into = join(target, 'usr', 'lib', 'modules', version);
  mkdirSync(into, { recursive: true });
  for (const f of ['modules.order', 'modules.builtin', 'modules.builtin.modinfo']) {
    if (existsSync(join(modulesDir, f))) copyFileSync(join(modulesDir, f), join(into, f));
  }
  for (const { file } of moduleOrder(modulesDir, board.rootModules.map((m) => [m, '']))) {
    mkdirSync(join(into, file, '..'), { recursive: true });
    copyFileSync(join(modulesDir, file), join(into, file));
  }
  run('depmod', ['-b', target, version]);
  makeInitramfs(board, modulesDir, target, join(target, 'boot', 'initrd.img'));
}

/** A gzip'd cpio: the root's static BusyBox, the initramfs modules (uncompressed, in load order) and /init. */
function makeInitramfs(board, modulesDir, target, file) {
  const work = `${file}.d`;
  rmSync(work, { recursive: true, force: true });
  for (const d of ['bin', 'lib/modules', 'proc', 'sys', 'dev', 'newroot']) mkdirSync(join(work, d), { recursive: true });
  copyFileSync(join(target, 'usr', 'bin', 'busybox'), join(work, 'bin', 'busybox'));
  chmodSync(join(work, 'bin', 'busybox'), 0o755);
  const list = [];
  for (const { file: m, name, params } of moduleOrder(modulesDir, board.initramfsModules.map((n) => [n, '']))) {
    const source = join(modulesDir, m);
    const bytes = source.endsWith('.xz') ? execFileSync('xz', ['-dc', source], { maxBuffer: 1 << 28 }) : readFileSync(source);
    writeFileSync(join(work, 'lib', 'modules', `${name}.ko`), bytes);
    list.push(`${name}.ko ${params}`.trim());
  }
  writeFileSync(join(work, 'modules.list'), `${list.join('\n')}\n`);
  copyFileSync(join(repoRoot, 'firmware', 'image', 'initramfs-init.sh'), join(work, 'init'));
  chmodSync(join(work, 'init'), 0o755);
  run('sh', ['-c', 'cd "$1" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -9 > "$2"', 'sh', work, file]);
  rmSync(work, { recursive: true, force: true });
}
