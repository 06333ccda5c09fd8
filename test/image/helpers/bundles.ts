// Update bundles for the image tests: a newer release built by the stand-in build, and the bad ones a device must
// refuse (signed by a CA it does not trust, of another compatible, a byte flipped in the payload).
import { execFileSync } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, openSync, readSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildImage } from '../../../firmware/image/build-image.mjs';
import { developmentKeys, makeCa } from '../../../firmware/image/dev-keys.mjs';
import { executableFor } from '../../../firmware/image/executable.mjs';
import { board as boardOf } from '../../../firmware/image/boards.mjs';
import { buildsDir, releaseBuildDir } from '../../../firmware/image/paths.mjs';

/** Builds (or reuses) `board`'s image at `version` in a folder of its own; returns the path of its signed bundle. */
export function releaseBundle(board: string, version: string): string {
  const out = releaseBuildDir(board, version);
  buildImage({ board, version, out });
  return join(out, `update-${version}.raucb`);
}

/**
 * A release at `version` whose daemon never becomes ready: the image is built with `--app` set to the executable of
 * `daemonVersion` (an older one), so the daemon runs and takes jobs but answers the health check with a version that is
 * not the slot's, and the health gate never passes. Returns the path of its signed bundle.
 */
export function staleDaemonBundle(board: string, version: string, daemonVersion: string): string {
  const out = join(buildsDir, `${board}-${version}-stale-daemon`);
  buildImage({ board, version, out, app: executableFor(boardOf(board).arch, daemonVersion) });
  return join(out, `update-${version}.raucb`);
}

/** The folder of the development CA's signer (the one the images trust). */
export function trustedSigner(): string {
  return dirname(developmentKeys().cert);
}

/** A bundle of the release's root made anew: its manifest's `compatible`, signed by `signer` (a CA's folder from makeCa). */
export function customBundle(releaseOut: string, file: string, { compatible, version, signer }: { compatible: string; version: string; signer: string }): string {
  const work = `${file}.d`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  copyFileSync(join(releaseOut, 'rootfs.ext4'), join(work, 'rootfs.ext4'));
  writeFileSync(join(work, 'manifest.raucm'), `[update]\ncompatible=${compatible}\nversion=${version}\n\n[bundle]\nformat=verity\n\n[image.rootfs]\nfilename=rootfs.ext4\n`);
  rmSync(file, { force: true });
  execFileSync('rauc', ['bundle', `--cert=${join(signer, 'signer.cert.pem')}`, `--key=${join(signer, 'signer.key.pem')}`, work, file], { stdio: 'ignore' });
  rmSync(work, { recursive: true, force: true });
  return file;
}

/** A CA the images do not trust, with a signer (made once in the tests' build folder). */
export function untrustedCa(): string {
  const dir = join(buildsDir, 'untrusted-ca');
  if (!existsSync(join(dir, 'signer.key.pem'))) makeCa(dir, 'printproxy untrusted test');
  return dir;
}

/** A copy of `bundle` with one byte flipped at `share` of its length (0.5: in the squashfs payload the signed hashes cover). */
export function flippedBundle(bundle: string, file: string, share = 0.5): string {
  copyFileSync(bundle, file);
  const at = Math.floor(statSync(file).size * share);
  const fd = openSync(file, 'r+');
  const byte = Buffer.alloc(1);
  readSync(fd, byte, 0, 1, at);
  byte[0] ^= 0x01;
  writeSync(fd, byte, 0, 1, at);
  closeSync(fd);
  return file;
}
