// The stand-in build of the device image: the Buildroot tree's layout, overlay, init scripts, boot scripts, genimage
// config, RAUC system.conf and health gate (buildroot/board, buildroot-overlay: the same files), on a root of
// Debian 13's packages and the project's executable for the board's arch. Writes dist/image/<board>/disk.img and the
// signed update bundle dist/image/<board>/update-<version>.raucb.
// Debian's packages (debootstrap, without running any of their code), the kernel's modules and initramfs and the
// executables are cached under .cache/image; a run whose inputs are all unchanged does nothing.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { board } from './boards.mjs';
import { ensureHostTools, run } from './host-tools.mjs';
import { packageRoot } from './package-root.mjs';
import { assembleTarget } from './target-root.mjs';
import { developmentKeys } from './dev-keys.mjs';
import { executableFor } from './executable.mjs';
import { hashTree, repoRoot } from './paths.mjs';

/**
 * Builds the image described by `options` ({ board, version?, keyring?, signCert?, signKey?, app?, out? }: `out` is the
 * output folder, default dist/image/<board>); returns its disk.img's path.
 */
export function buildImage(options) {
  const started = Date.now();
  const b = board(options.board);
  ensureHostTools(b);
  const version = options.version ?? JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;
  const keys = options.keyring ? { keyring: options.keyring, cert: options.signCert, key: options.signKey } : developmentKeys();
  const app = options.app ?? executableFor(b.arch, version);
  const out = options.out ?? join(repoRoot, 'dist', 'image', b.name);
  const disk = join(out, 'disk.img');
  const inputs = inputsHash(b, version, keys, app);
  const stamp = join(out, '.inputs');
  if (existsSync(disk) && existsSync(stamp) && readFileSync(stamp, 'utf8') === inputs) {
    console.log(`image: ${relative(repoRoot, disk)} is up to date (${b.name}, ${version})`);
    return disk;
  }
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const packages = packageRoot(b);
  const target = join(out, 'target');
  assembleTarget({ board: b, packages, target, app, version });
  run('sh', [join(repoRoot, 'buildroot', 'board', 'common', 'post-build.sh'), target, b.name], { env: { ...process.env, PRINTPROXY_KEYRING: keys.keyring } });
  makeRootfs(target, join(out, 'rootfs.ext4'));
  if (b.grub) makeGrubLoader(packages.root, join(out, 'EFI', 'BOOT', 'BOOTX64.EFI'));
  run('sh', [join(repoRoot, 'buildroot', 'board', 'common', 'post-image.sh'), out, b.name], {
    env: { ...process.env, TARGET_DIR: target, PRINTPROXY_SIGN_CERT: keys.cert, PRINTPROXY_SIGN_KEY: keys.key, PRINTPROXY_KEYRING: keys.keyring },
  });
  rmSync(target, { recursive: true, force: true });
  writeFileSync(stamp, inputs);
  console.log(`image: ${relative(repoRoot, disk)} (${b.name}, ${version}) in ${Math.round((Date.now() - started) / 1000)} s`);
  return disk;
}

/** The root's ext4 image: its files' size and a quarter more, read-only at run time, at most the 512 MiB slot. */
function makeRootfs(target, file) {
  const used = Number(run('du', ['-sb', target], { capture: true }).split(/\s/)[0]);
  const mib = Math.ceil((used * 1.25) / 2 ** 20) + 32;
  if (mib > 512) throw new Error(`the root needs ${mib} MiB; a slot holds 512`);
  run('mkfs.ext4', ['-q', '-F', '-L', 'rootfs', '-m', '0', '-d', target, file, `${mib}M`]);
}

/** GRUB's EFI loader (Debian 13's grub-mkimage and modules from the package root, run through its own ld.so). */
function makeGrubLoader(root, file) {
  mkdirSync(dirname(file), { recursive: true });
  const modules = [
    'part_gpt', 'fat', 'ext2', 'normal', 'configfile', 'linux', 'loadenv', 'test', 'regexp', 'echo', 'search',
    'search_fs_file', 'search_label', 'sleep', 'reboot', 'halt', 'gzio', 'xzio', 'serial', 'terminal', 'efi_gop', 'all_video',
  ];
  run(join(root, 'usr', 'lib64', 'ld-linux-x86-64.so.2'), [
    '--library-path', join(root, 'usr', 'lib', 'x86_64-linux-gnu'), join(root, 'usr', 'bin', 'grub-mkimage'),
    '-d', join(root, 'usr', 'lib', 'grub', 'x86_64-efi'), '-O', 'x86_64-efi', '-p', '/EFI/BOOT', '-o', file, ...modules,
  ]);
}

/** A hash of everything the image is made of: board files, overlay, this folder's scripts, the executable, keys. */
function inputsHash(b, version, keys, app) {
  const hash = createHash('sha256').update(JSON.stringify({ board: b.name, version, packages: b.packages }));
  for (const dir of ['buildroot/board', 'buildroot-overlay', 'firmware/image']) hashTree(hash, join(repoRoot, dir));
  for (const file of [keys.keyring, keys.cert, keys.key, app]) hash.update(file).update(String(statSync(file).mtimeMs)).update(String(statSync(file).size));
  return hash.digest('hex');
}
