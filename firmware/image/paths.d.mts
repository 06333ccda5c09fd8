// Types of paths.mjs for the TypeScript callers (the image tests).

/** The repository's root folder. */
export const repoRoot: string;
/** Debian's packages, kernels, initramfs and executables, reused across builds (git-ignored). */
export const imageCache: string;
/** Builds of other versions made beside the default one (`--out`). */
export const buildsDir: string;
/** The folder of `board`'s build at `version` under buildsDir. */
export function releaseBuildDir(board: string, version: string): string;
/** The release after `version` (its patch number plus one). */
export function nextPatchVersion(version: string): string;
