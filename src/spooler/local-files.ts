// Local file content: only regular files inside the allowed roots, after `..` and symlinks are resolved, read within a
// byte limit (decisions.md).
import { constants, realpathSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { AppError, DeviceError } from '../errors';
import { inside } from './share-roots';

/** Resolves `path` through symlinks and checks it is a regular file inside one of `roots`; throws 400 `Local path not allowed`. */
export function allowedLocalPath(path: string, roots: readonly string[]): string {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    throw new AppError('INVALID_REQUEST', `Local path not allowed: ${path} does not exist inside an allowed folder`);
  }
  if (!roots.some((root) => inside(real, realOrNull(root) ?? '\0'))) {
    throw new AppError('INVALID_REQUEST', `Local path not allowed: ${path} (allowed: the data folder's files/ and configured share mount points)`);
  }
  if (!statSync(real, { throwIfNoEntry: false })?.isFile()) throw new AppError('INVALID_REQUEST', `Local path not allowed: ${path} is not a regular file`);
  return real;
}

/** Reads the regular file at the real path `path`, at most `maxBytes`; rejects with DeviceError IO saying why. */
export async function readLocalFile(path: string, maxBytes: number): Promise<Buffer> {
  // O_NONBLOCK: a FIFO swapped in after the check opens at once instead of waiting for a writer, and is refused below
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!(await handle.stat()).isFile()) throw new DeviceError('IO', `reading ${path} failed: not a regular file`);
    // the size is not trusted (files in /proc say 0): read until the end, one byte past the limit at most
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes + 1, 1024 * 1024));
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, maxBytes + 1 - total), null);
      if (bytesRead === 0) break;
      chunks.push(Buffer.from(buffer.subarray(0, bytesRead)));
      total += bytesRead;
      if (total > maxBytes) throw new DeviceError('IO', `reading ${path} failed: the file is larger than the body limit of ${maxBytes} bytes`);
    }
    return Buffer.concat(chunks, total);
  } finally {
    await handle.close();
  }
}

function realOrNull(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
