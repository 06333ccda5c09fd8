// Static files held in memory (a console embedded in the bundle): listed from a name → bytes table.
import type { StaticFiles } from './static-dir';

/** The files of `table` (relative paths with '/', no leading slash), their folders listed too; each read decodes from base64 once. */
export function memoryFiles(table: Readonly<Record<string, string>>): StaticFiles {
  const kinds = new Map<string, 'file' | 'dir'>([['', 'dir']]);
  for (const path of Object.keys(table)) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i += 1) kinds.set(parts.slice(0, i).join('/'), 'dir');
    kinds.set(path, 'file');
  }
  return {
    kind: (path) => kinds.get(path) ?? null,
    read: (path) => (kinds.get(path) === 'file' ? Promise.resolve(Buffer.from(table[path], 'base64')) : Promise.reject(new Error(`not a listed file: ${path}`))),
  };
}
