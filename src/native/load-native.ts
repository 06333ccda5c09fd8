// Loads native addons (.node) directly with process.dlopen, never through a package's JS fallback.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where natives may live, first match wins: an explicit dir, `native/` beside the running script, node_modules. */
export interface NativeSearch {
  /** Directory given by flag/env or by the single-executable extractor. */
  nativeDir?: string;
  /** Path of the running main script (process.argv[1]). */
  mainScript?: string;
}

/** Finds `fileName` in the search places, or in `fallbackDirs` (node_modules); null when absent. */
export function findNative(fileName: string, search: NativeSearch, fallbackDirs: string[]): string | null {
  const dirs = [search.nativeDir, search.mainScript ? join(dirname(search.mainScript), 'native') : undefined, ...fallbackDirs];
  for (const dir of dirs) {
    if (dir && existsSync(join(dir, fileName))) return join(dir, fileName);
  }
  return null;
}

/** dlopens an addon file and returns its exports; throws with the path, the reason and a hint when it cannot load. */
export function dlopenNative<T>(file: string): T {
  const mod = { exports: {} as T };
  try {
    process.dlopen(mod, file);
  } catch (err) {
    const reason = (err as Error).message;
    throw new Error(`cannot load native ${file}: ${reason}${hintFor(reason)}`);
  }
  return mod.exports;
}

/** What the loader's reason most likely means, in the operator's terms. */
function hintFor(reason: string): string {
  // glibc's words when the folder's mount forbids mapping code
  if (/failed to map segment/.test(reason)) return ' (is its folder on a noexec mount? set --native-dir to an exec-allowed folder)';
  const glibc = /GLIBC_(\d+\.\d+)' not found/.exec(reason);
  if (glibc) return ` (this build needs glibc ${glibc[1]} or newer; see docs/runtimes.md)`;
  return '';
}

