// Where the image build reads and writes.
import { dirname, join, resolve } from 'node:path';
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
