// Looks at the partition under a folder: bytes still free for writes, and whether it takes writes at all.
import { constants, promises as fs } from 'node:fs';
import type { StorageProbe } from './storage-health';

/** A probe of the partition holding `dir`: statfs for the free bytes, access(W_OK) for a read-only mount (EROFS). */
export function storageProbe(dir: string): () => Promise<StorageProbe> {
  return async () => {
    const stats = await fs.statfs(dir);
    const writable = await fs.access(dir, constants.W_OK).then(
      () => true,
      (err: NodeJS.ErrnoException) => err.code !== 'EROFS',
    );
    return { freeBytes: stats.bavail * stats.bsize, writable };
  };
}
