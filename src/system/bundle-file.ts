// Bundles on the data partition: free space, streaming bytes to a file (never held whole in memory) while hashing them,
// and reading a part of one back.
import { createHash, type Hash } from 'node:crypto';
import { createReadStream, promises as fs } from 'node:fs';
import type { Readable } from 'node:stream';
import { BundleCheckError } from '../errors';

/** Free bytes for an unprivileged writer on the file system holding `dir` (statfs `bavail * bsize`). */
export type FreeBytes = (dir: string) => Promise<number>;

/** The default FreeBytes over fs.statfs. */
export const statfsFreeBytes: FreeBytes = async (dir) => {
  const stats = await fs.statfs(dir);
  return stats.bavail * stats.bsize;
};

/** Room kept free besides a bundle: settings, spool and journals must still be written while it is stored. */
export const BUNDLE_MARGIN_BYTES = 16 * 1024 * 1024;

/**
 * Appends what `source` yields to `file` (created when absent), feeding each chunk to `hash`; rejects with
 * BundleCheckError('size') when more than `limit` bytes in all would be in the file, or as the source fails. Resolves
 * with the bytes written.
 */
export async function appendStream(source: AsyncIterable<Buffer | Uint8Array> | Readable, file: string, hash: Hash | null, limit: number, already = 0): Promise<number> {
  const handle = await fs.open(file, 'a', 0o600);
  let written = 0;
  try {
    for await (const chunk of source as AsyncIterable<Buffer | Uint8Array>) {
      if (already + written + chunk.byteLength > limit) throw new BundleCheckError('size', `more than the bundle's ${limit} bytes`);
      await handle.write(chunk);
      hash?.update(chunk);
      written += chunk.byteLength;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  return written;
}

/** A SHA-256 hash fed with the first `bytes` of `file` (a partial download resumed). */
export async function hashOfPrefix(file: string, bytes: number): Promise<Hash> {
  const hash = createHash('sha256');
  if (bytes === 0) return hash;
  for await (const chunk of createReadStream(file, { start: 0, end: bytes - 1 })) hash.update(chunk as Buffer);
  return hash;
}

/** Fills `into` from `position` of the open bundle; BundleCheckError('payload') when the file ends first. */
export async function readFully(handle: fs.FileHandle, into: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < into.length) {
    const { bytesRead } = await handle.read(into, done, into.length - done, position + done);
    if (bytesRead === 0) throw new BundleCheckError('payload', `the bundle ends at byte ${position + done}, before the part its signature describes`);
    done += bytesRead;
  }
}

/** The size of `file`, 0 when it does not exist. */
export async function sizeOf(file: string): Promise<number> {
  try {
    return (await fs.stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
}
