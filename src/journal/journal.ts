// One durable journal: an append-only file of lines, group-committed (one fsync per batch), replayed, compacted atomically.
import { existsSync, promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { Logger } from '../log';
import { isTemporaryOf, removeLeftovers, syncDir, writeFileAtomic } from '../settings/atomic-file';
import { Mutex } from '../util/mutex';

/** A part of a rewritten journal: new text (whole lines), or the bytes [from, to) of the journal as it is. */
export type JournalPiece = { text: string } | { from: number; to: number };

/** What a rewrite wrote: where each piece starts in the new file, and its lines and bytes. */
export interface Rewritten {
  starts: number[];
  lines: number;
  bytes: number;
}

/** How a journal compacts itself: once it is larger than `aboveBytes` and twice `liveBytes()`, it keeps only `live()`. */
export interface Compaction {
  aboveBytes: number;
  /** Bytes of the lines still needed (newlines included). */
  liveBytes: () => number;
  /** The pieces of the compacted journal, read under the journal's lock. */
  live: () => JournalPiece[];
  /** Called once the compacted journal is in place (never after a failed one): the owner moves its offsets. */
  moved: (rewritten: Rewritten) => void;
}

/**
 * What an appended line survives once its append resolved: `power-cut` (fsynced, the default) or only `process-crash`
 * (left in the page cache, for markers that must never cost an fsync on the queue's path).
 */
export type Durability = 'power-cut' | 'process-crash';

/** One line read back: its text (no newline), where it starts and its length in bytes (no newline). */
export interface JournalLine {
  text: string;
  offset: number;
  length: number;
}

/** Bytes read or copied at a time: a replay or a rewrite never holds more of the file (plus one line). */
const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

interface Waiting {
  line: string;
  apply: ((offset: number) => void) | undefined;
  resolve: (offset: number) => void;
  reject: (err: unknown) => void;
}

/**
 * An append-only file of lines. Appends that arrive while a write is under way go out together in the next write (one
 * fsync per batch); a line's `apply` (its owner's memory change) runs only once it is on disk. A torn last line (a power
 * cut mid-write) is never replayed and is cut off before the next write. A compaction or rewrite replaces the file
 * atomically (temporary, fsync, rename, folder fsync): a crash at any point leaves the old or the new journal.
 */
export class Journal {
  private readonly lock = new Mutex();
  private waiting: Waiting[] = [];
  private drained: Promise<void> | null = null;
  private handle: FileHandle | null = null;
  private closed = false;

  private constructor(
    private readonly file: string,
    /** Bytes of whole lines: where the next line goes. */
    private end: number,
    /** True while bytes past `end` (a torn line, a failed write) are to be cut off before the next write. */
    private torn: boolean,
    private readonly compaction: Compaction | null,
    private readonly logger: Logger,
    private readonly durability: Durability,
  ) {}

  /** Opens (or starts) the journal at `file` (its folder must exist); removes temporaries a crash left beside it. */
  static async open(file: string, logger: Logger, compaction: Compaction | null = null, durability: Durability = 'power-cut'): Promise<Journal> {
    if (existsSync(dirname(file))) removeLeftovers(dirname(file), (name) => isTemporaryOf(basename(file), name));
    const size = await fs.stat(file).then((s) => s.size, missingAsZero);
    const end = await wholeLinesEnd(file, size);
    return new Journal(file, end, end < size, compaction, logger, durability);
  }

  /** Bytes of whole lines in the journal. */
  get size(): number {
    return this.end;
  }

  /** The whole lines from byte `from` up to `to` (default: all), in order, read a chunk at a time; empty lines skipped. */
  async *replay(from = 0, to = this.end): AsyncGenerator<JournalLine> {
    const handle = await fs.open(this.file, 'r').catch(missingAsNull);
    if (!handle) return;
    try {
      yield* linesOf(handle, from, to);
    } finally {
      await handle.close();
    }
  }

  /**
   * Appends `line` (no newline in it) with the next batch; resolves with its offset once it is on disk, after `apply` ran
   * with it (before any compaction). Rejects when it could not be stored: `apply` is not called.
   */
  append(line: string, apply?: (offset: number) => void): Promise<number> {
    if (this.closed) return Promise.reject(new Error(`journal ${this.file} is closed`));
    return new Promise<number>((resolve, reject) => {
      this.waiting.push({ line: `${line}\n`, apply, resolve, reject });
      this.drained ??= this.drain();
    });
  }

  /** The line of `length` bytes at `offset` (as `apply` or `moved` gave it); null when the file no longer holds it. */
  read(offset: number, length: number): Promise<string | null> {
    return this.lock.run(async () => {
      const handle = await this.writable();
      const bytes = Buffer.alloc(length);
      const { bytesRead } = await handle.read(bytes, 0, length, offset);
      return bytesRead === length ? bytes.toString('utf8') : null;
    });
  }

  /**
   * Replaces the journal atomically with `plan()`'s pieces (made under the lock; null: nothing to rewrite); `apply` runs
   * once the new file is in place. Rejects, the journal unchanged, when it could not be written.
   */
  rewrite(plan: () => Promise<JournalPiece[] | null> | JournalPiece[] | null, apply?: (rewritten: Rewritten) => void): Promise<Rewritten | null> {
    return this.lock.run(async () => {
      const pieces = await plan();
      if (!pieces) return null;
      const rewritten = await this.replace(pieces);
      apply?.(rewritten);
      return rewritten;
    });
  }

  /** Refuses new lines, waits for the writes under way, and closes the file. */
  async close(): Promise<void> {
    this.closed = true;
    await this.drained;
    await this.lock.run(() => this.release());
  }

  /** Closes, then deletes the journal. */
  async remove(): Promise<void> {
    await this.close();
    await fs.rm(this.file, { force: true });
  }

  /** Writes what is waiting, batch after batch, each under the lock with one fsync; compacts after a batch when worth it. */
  private async drain(): Promise<void> {
    for (;;) {
      if (this.waiting.length === 0) {
        // in the same tick as the check: a line appended from here on starts the next drain
        this.drained = null;
        return;
      }
      const batch = this.waiting;
      this.waiting = [];
      await this.lock.run(() => this.commit(batch));
    }
  }

  private async commit(batch: Waiting[]): Promise<void> {
    const text = batch.map((w) => w.line).join('');
    const start = this.end;
    try {
      await this.write(text);
    } catch (err) {
      for (const w of batch) w.reject(err);
      return;
    }
    let offset = start;
    for (const w of batch) {
      w.apply?.(offset);
      w.resolve(offset);
      offset += Buffer.byteLength(w.line);
    }
    if (this.worthCompacting()) await this.compact();
  }

  /** Appends `text` and fsyncs it (unless only a process crash is to be outlived); on failure what was written is cut off again (or at the next write). */
  private async write(text: string): Promise<void> {
    try {
      const handle = await this.writable();
      if (this.torn) await handle.truncate(this.end);
      this.torn = false;
      await writeWhole(handle, Buffer.from(text));
      if (this.durability === 'power-cut') await handle.datasync();
      this.end += Buffer.byteLength(text);
    } catch (err) {
      this.logger.warn('journal: write failed', { file: this.file, reason: (err as Error).message });
      this.torn = !(await this.handle?.truncate(this.end).then(() => true, () => false));
      throw err;
    }
  }

  /** Opens the file for appending and reading; the first time it is created, its folder is synced so the name survives a power cut. */
  private async writable(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    const handle = await fs.open(this.file, 'a+', 0o600);
    this.handle = handle;
    if (this.end === 0) await syncDir(dirname(this.file));
    return handle;
  }

  private worthCompacting(): boolean {
    const c = this.compaction;
    return c !== null && this.end > c.aboveBytes && this.end > 2 * c.liveBytes();
  }

  /** A failed compaction leaves the journal as it was (logged), to be compacted after a later batch. */
  private async compact(): Promise<void> {
    const c = this.compaction!;
    try {
      c.moved(await this.replace(c.live()));
    } catch (err) {
      this.logger.warn('journal: compaction failed; the journal grows until the next one', { file: this.file, reason: (err as Error).message });
    }
  }

  /** Writes `pieces` to a temporary, fsyncs it, renames it over the journal and fsyncs the folder. */
  private async replace(pieces: JournalPiece[]): Promise<Rewritten> {
    const rewritten: Rewritten = { starts: [], lines: 0, bytes: 0 };
    await writeFileAtomic(this.file, (out) => this.writePieces(pieces, out, rewritten), { backup: false });
    await this.release();
    this.end = rewritten.bytes;
    this.torn = false;
    return rewritten;
  }

  private async writePieces(pieces: JournalPiece[], out: FileHandle, tally: Rewritten): Promise<void> {
    const source = await fs.open(this.file, 'r').catch(missingAsNull);
    try {
      for (const piece of pieces) {
        tally.starts.push(tally.bytes);
        if ('text' in piece) await writeCounted(out, Buffer.from(piece.text), tally);
        else if (source) await copyRange(source, piece.from, Math.min(piece.to, this.end), out, tally);
      }
    } finally {
      await source?.close();
    }
  }

  private async release(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = null;
  }
}

async function* linesOf(handle: FileHandle, from: number, to: number): AsyncGenerator<JournalLine> {
  let carry = Buffer.alloc(0);
  let carryAt = from;
  for (let offset = from; offset < to; ) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, to - offset));
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
    if (bytesRead === 0) return;
    offset += bytesRead;
    const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
    let start = 0;
    for (let nl = data.indexOf(NEWLINE); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
      if (nl > start) yield { text: data.toString('utf8', start, nl), offset: carryAt + start, length: nl - start };
      start = nl + 1;
    }
    carry = Buffer.from(data.subarray(start));
    carryAt += start;
  }
}

/** The end of the last whole line of `file` (`size` bytes long): what lies past it is a torn write. */
async function wholeLinesEnd(file: string, size: number): Promise<number> {
  if (size === 0) return 0;
  const handle = await fs.open(file, 'r');
  try {
    for (let pos = size; pos > 0; ) {
      const start = Math.max(0, pos - CHUNK_BYTES);
      const chunk = Buffer.allocUnsafe(pos - start);
      await handle.read(chunk, 0, chunk.length, start);
      const nl = chunk.lastIndexOf(NEWLINE);
      if (nl !== -1) return start + nl + 1;
      pos = start;
    }
    return 0;
  } finally {
    await handle.close();
  }
}

async function copyRange(source: FileHandle, from: number, to: number, out: FileHandle, tally: Rewritten): Promise<void> {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  for (let offset = from; offset < to; ) {
    const { bytesRead } = await source.read(chunk, 0, Math.min(CHUNK_BYTES, to - offset), offset);
    if (bytesRead === 0) return;
    await writeCounted(out, chunk.subarray(0, bytesRead), tally);
    offset += bytesRead;
  }
}

/** Appends all of `bytes` (the file is open for appending): one write, and another for what a short write left. */
async function writeWhole(handle: FileHandle, bytes: Buffer): Promise<void> {
  for (let done = 0; done < bytes.length; ) done += (await handle.write(bytes, done, bytes.length - done)).bytesWritten;
}

async function writeCounted(out: FileHandle, bytes: Buffer, tally: Rewritten): Promise<void> {
  await out.write(bytes);
  tally.bytes += bytes.length;
  for (let nl = bytes.indexOf(NEWLINE); nl !== -1; nl = bytes.indexOf(NEWLINE, nl + 1)) tally.lines += 1;
}

function missingAsZero(err: unknown): number {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
  throw err;
}

function missingAsNull(err: unknown): null {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw err;
}
