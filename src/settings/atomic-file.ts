// Crash-safe file writes for flash: tmp + fsync + rename, keeping the previous good copy as `.bak`.
import { promises as fs, readFileSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

/** Writes `data` to `path` so that a crash at any point leaves either the old or the new content readable. */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  const tmp = join(dir, `.${basename(path)}.${process.pid}.tmp`);
  const handle = await fs.open(tmp, 'w', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.copyFile(path, `${path}.bak`).catch(ignoreMissing);
  await fs.rename(tmp, path);
  await syncDir(dir);
}

/** Reads `path`, falling back to its `.bak` when the main copy is missing or fails `parse`; null when neither is usable. */
export function readWithFallback<T>(path: string, parse: (text: string) => T): { value: T; from: 'main' | 'backup' } | null {
  for (const [file, from] of [[path, 'main'], [`${path}.bak`, 'backup']] as const) {
    try {
      return { value: parse(readFileSync(file, 'utf8')), from };
    } catch {
      // missing or corrupt: try the next copy
    }
  }
  return null;
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } catch {
    // some filesystems refuse fsync on directories; the rename is still atomic
  } finally {
    await handle.close();
  }
}

function ignoreMissing(err: NodeJS.ErrnoException): void {
  if (err.code !== 'ENOENT') throw err;
}
