// Types of paths.mjs for the TypeScript callers (the image tests).

/** The repository's root folder. */
export const repoRoot: string;
/** Debian's packages, kernels, initramfs and executables, reused across builds (git-ignored). */
export const imageCache: string;
