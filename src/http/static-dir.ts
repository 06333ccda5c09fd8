// A folder of static files on disk: listed once at start, each file read when first asked for.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The files of a static site, by relative path ('' is the root; no leading or trailing slash). */
export interface StaticFiles {
  /** Whether `path` is a listed file, a listed folder, or neither. */
  kind(path: string): 'file' | 'dir' | null;
  /** The bytes of a listed file. */
  read(path: string): Promise<Buffer>;
}

/** Most entries a static folder may hold: mounting a wrong, huge folder fails at start instead of eating memory. */
const MAX_ENTRIES = 20_000;

/**
 * Lists `root` recursively now; only regular files and folders are listed (symbolic links are skipped),
 * so no request can reach anything outside `root` or anything added later. Rejects when `root` cannot be read.
 */
export async function staticDirectory(root: string): Promise<StaticFiles> {
  const kinds = new Map<string, 'file' | 'dir'>([['', 'dir']]);
  await list(root, '', kinds);
  return {
    kind: (path) => kinds.get(path) ?? null,
    read: (path) => {
      if (kinds.get(path) !== 'file') return Promise.reject(new Error(`not a listed file: ${path}`));
      return readFile(join(root, ...path.split('/')));
    },
  };
}

async function list(root: string, prefix: string, kinds: Map<string, 'file' | 'dir'>): Promise<void> {
  for (const entry of await readdir(join(root, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) kinds.set(path, 'dir');
    else if (entry.isFile()) kinds.set(path, 'file');
    else continue;
    if (kinds.size > MAX_ENTRIES) throw new Error(`static folder ${root} holds more than ${MAX_ENTRIES} entries`);
    if (entry.isDirectory()) await list(root, path, kinds);
  }
}
