// Where the image build reads and writes.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Debian's packages, kernels, initramfs and executables, reused across builds (git-ignored). */
export const imageCache = join(repoRoot, '.cache', 'image');
/** Builds of other versions made beside the default one (`--out`), e.g. the releases the update tests install. */
export const buildsDir = join(imageCache, 'builds');

/** The folder of `board`'s build at `version` under buildsDir. */
export function releaseBuildDir(board, version) {
  return join(buildsDir, `${board}-${version}`);
}

/** The release after `version` (its patch number plus one): the one the update tests install. */
export function nextPatchVersion(version) {
  const [major, minor, patch] = version.split('-')[0].split('.').map(Number);
  return `${major}.${minor}.${patch + 1}`;
}

/** Feeds `hash` every file under `path` (or the file itself): its path from the repository's root, mode and bytes. */
export function hashTree(hash, path) {
  const stat = statSync(path);
  if (stat.isDirectory()) {
    for (const name of readdirSync(path).sort()) hashTree(hash, join(path, name));
  } else {
    hash.update(relative(repoRoot, path)).update(String(stat.mode)).update(readFileSync(path));
  }
}
