// Where the image build reads and writes.
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Debian's packages, kernels, initramfs and executables, reused across builds (git-ignored). */
export const imageCache = join(repoRoot, '.cache', 'image');
