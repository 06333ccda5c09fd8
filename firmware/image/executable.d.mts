// Types of executable.mjs for the TypeScript callers (the image tests).

/** The path of the executable for `arch` (x64, arm64) reporting `version`, built when the cache has none. */
export function executableFor(arch: 'x64' | 'arm64', version: string): string;
