// A board's root from Debian 13's packages: debootstrap (first stage only, so none of their code runs here) fetches
// the minbase set and the board's packages with their dependencies; every package is unpacked, but for systemd (BusyBox
// is init) and the kernel, which is unpacked apart so that only the modules the image needs go into it.
// Cached in .cache/image/packages-<arch>-<hash of the list>; made in a .partial folder and renamed when whole.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from './host-tools.mjs';
import { imageCache } from './paths.mjs';

const SUITE = 'trixie';
/** Packages a dependency brings that the image does without: init is BusyBox's. */
const LEFT_PACKED = /^(systemd|systemd-sysv|systemd-timesyncd|linux-image-[^_]+)_/;

/** { root, kernel: { dir, version } } of board `b`, made when missing (about a minute, once). */
export function packageRoot(b) {
  const hash = createHash('sha256').update(JSON.stringify([SUITE, b.debArch, b.packages])).digest('hex').slice(0, 10);
  const dir = join(imageCache, `packages-${b.debArch}-${hash}`);
  if (!existsSync(join(dir, '.complete'))) makePackageRoot(b, dir);
  const kernelDir = join(dir, 'kernel');
  const version = readdirSync(join(kernelDir, 'usr', 'lib', 'modules'))[0];
  indexModules(kernelDir, version);
  return { root: join(dir, 'root'), kernel: { dir: kernelDir, version } };
}

function makePackageRoot(b, dir) {
  const started = Date.now();
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const root = join(partial, 'root');
  const mirror = process.env.DEBIAN_MIRROR || 'http://deb.debian.org/debian';
  console.log(`image: fetching Debian ${SUITE} ${b.debArch} packages (${b.packages.length} and their dependencies)`);
  run('debootstrap', ['--variant=minbase', `--arch=${b.debArch}`, '--foreign', `--include=${b.packages.join(',')}`, SUITE, root, mirror]);
  const archives = join(root, 'var', 'cache', 'apt', 'archives');
  const debs = readdirSync(archives).filter((f) => f.endsWith('.deb'));
  for (const deb of debs) {
    if (!LEFT_PACKED.test(deb)) run('dpkg-deb', ['-x', join(archives, deb), root]);
  }
  const kernelDeb = debs.find((f) => /^linux-image-\d/.test(f));
  if (!kernelDeb) throw new Error(`no kernel package among the ${b.debArch} packages`);
  run('dpkg-deb', ['-x', join(archives, kernelDeb), join(partial, 'kernel')]);
  writeFileSync(join(partial, 'packages.txt'), `${debs.sort().join('\n')}\n`);
  rmSync(archives, { recursive: true, force: true });
  rmSync(join(root, 'debootstrap'), { recursive: true, force: true });
  writeFileSync(join(partial, '.complete'), `${SUITE} ${b.debArch} ${new Date().toISOString()}\n`);
  renameSync(partial, dir);
  console.log(`image: Debian ${SUITE} ${b.debArch} root in ${Math.round((Date.now() - started) / 1000)} s`);
}

/** depmod's index of the kernel package's modules (its postinst, which did not run, makes it on a Debian system). */
function indexModules(kernelDir, version) {
  if (existsSync(join(kernelDir, 'usr', 'lib', 'modules', version, 'modules.dep'))) return;
  if (!existsSync(join(kernelDir, 'lib'))) symlinkSync('usr/lib', join(kernelDir, 'lib'));
  run('depmod', ['-b', kernelDir, version]);
}
