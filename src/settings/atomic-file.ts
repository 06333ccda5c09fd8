// Crash-safe file writes for flash: tmp + fsync + rename, keeping the previous good copy as `.bak`; no temporary outlives a failure.
import { closeSync, fsyncSync, openSync, promises as fs, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';

let counter = 0;

/** How writeFileAtomic makes a file last; every field defaults to true (a settings file: durable, with its `.bak`). */
export interface AtomicWriteOptions {
  /** Keep the previous content as `<path>.bak` (readWithFallback reads it when the main copy is corrupt). */
  backup?: boolean;
  /** fsync the content before the rename, so that it survives a power loss (a process crash never loses it). */
  sync?: boolean;
  /** fsync the folder after the rename, so that the new name survives a power loss; skip it when a later write's sync covers it. */
  syncFolder?: boolean;
}

/** Writes a new file's content through its handle (for content made in pieces, never held whole in memory). */
export type ContentWriter = (handle: fs.FileHandle) => Promise<void>;

/**
 * Writes `data` (or what a writer writes) to `path` so that a crash at any point leaves either the old or the new
 * content readable; on failure nothing changed and no temporary is left.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array | ContentWriter, options: AtomicWriteOptions = {}): Promise<void> {
  const { backup = true, sync = true, syncFolder = true } = options;
  const tmp = temporaryOf(path);
  try {
    await writeTo(tmp, data, sync);
    if (backup) await keepBackup(path);
    await fs.rename(tmp, path);
  } catch (err) {
    await fs.unlink(tmp).catch(() => undefined);
    throw err;
  }
  if (syncFolder) await syncDir(dirname(path));
}

/** True for the name of a temporary that writeFileAtomic makes for a file named `base` (left behind only by a crash). */
export function isTemporaryOf(base: string, name: string): boolean {
  return name.startsWith(`.${base}.`) && name.endsWith('.tmp');
}

/** True for the name of any temporary writeFileAtomic makes. */
export function isTemporary(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

/** Reads `path`, falling back to its `.bak` when the main copy is missing or fails `parse`; null when neither is usable. */
export function readWithFallback<T>(path: string, parse: (text: string) => T): { value: T; text: string; from: 'main' | 'backup' } | null {
  for (const [file, from] of [[path, 'main'], [`${path}.bak`, 'backup']] as const) {
    try {
      const text = readFileSync(file, 'utf8');
      return { value: parse(text), text, from };
    } catch {
      // missing or corrupt: try the next copy
    }
  }
  return null;
}

/** `.<name>.<pid>.<n>.tmp` next to `path`: unique within the process and across processes. */
function temporaryOf(path: string): string {
  counter += 1;
  return join(dirname(path), `.${basename(path)}.${process.pid}.${counter}.tmp`);
}

async function writeTo(file: string, data: string | Uint8Array | ContentWriter, sync: boolean): Promise<void> {
  const handle = await fs.open(file, 'w', 0o600);
  try {
    if (typeof data === 'function') await data(handle);
    else await handle.writeFile(data);
    if (sync) await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Makes `<path>.bak` the current content of `path` (nothing when `path` does not exist yet), replacing the old backup
 * atomically: a hard link costs no space; where links are refused (FAT), a synced copy is renamed into place.
 */
async function keepBackup(path: string): Promise<void> {
  const tmp = temporaryOf(path);
  try {
    await linkOrCopy(path, tmp);
    await fs.rename(tmp, `${path}.bak`);
  } catch (err) {
    await fs.unlink(tmp).catch(() => undefined);
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await fs.link(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw err;
    await writeTo(to, await fs.readFile(from), true);
  }
}

/**
 * fsyncs a folder, so that names renamed into it survive a power loss. Best effort: the rename is atomic either way,
 * and some filesystems refuse to open or fsync a directory (skipped).
 */
export async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r').catch(() => null);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close().catch(() => undefined);
}

/** syncDir, synchronously (at start, where the caller cannot wait). */
export function syncDirSync(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // some filesystems refuse to open or fsync a folder
  }
}

/**
 * Writes `pieces` to `path` as writeFileAtomic does without a backup or the folder's sync (a temporary, fsynced, then
 * renamed; none left on failure), synchronously: at start, where the caller cannot wait.
 */
export function writeFileAtomicSync(path: string, pieces: Uint8Array[]): void {
  const tmp = temporaryOf(path);
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      for (const piece of pieces) for (let done = 0; done < piece.length; ) done += writeSync(fd, piece, done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Removes every file in `dir` that `isLeftover` picks (temporaries a crash left behind); returns the names removed. A file
 * the partition will not let go (mounted read-only) stays, for a later start: it is never read.
 */
export function removeLeftovers(dir: string, isLeftover: (name: string) => boolean): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    if (!isLeftover(name)) continue;
    try {
      rmSync(join(dir, name), { force: true });
      removed.push(name);
    } catch {
      // read-only: kept
    }
  }
  return removed;
}
