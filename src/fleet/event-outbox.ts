// Events the fleet link could not publish (disconnected): an append-only journal on disk (DATA/fleet/events.log),
// bounded to the newest events (a `reset` line first when older ones had to go), drained in order on reconnect.
import { promises as fs, mkdirSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log';
import { writeFileAtomic } from '../settings/atomic-file';
import { Mutex } from '../util/mutex';

/** Bounds: at least the newest `maxEvents` are kept unless they pass `maxBytes`. */
export interface EventOutboxBounds {
  maxEvents: number;
  maxBytes: number;
}

/** fleet.md: at least the last 10,000 events, or 16 MiB. */
export const DEFAULT_EVENT_OUTBOX_BOUNDS: EventOutboxBounds = { maxEvents: 10_000, maxBytes: 16 * 1024 * 1024 };

/** The line standing for events dropped before the ones that follow it. */
export const RESET_LINE = '{"type":"reset"}';

/** Publishes one journal line (an event object in JSON); rejects when it could not be delivered. */
export type PublishLine = (line: string) => Promise<void>;

/** The journal; only its counts stay in memory (the file is read and rewritten in chunks), and appends are group-committed (one fsync per batch). */
export class EventOutbox {
  private readonly lock = new Mutex();
  private waiting: string[] = [];
  /** Lines of the batch being written (counted as pending already). */
  private inWrite = 0;
  private writing: Promise<void> | null = null;
  private count: number;
  private bytes: number;
  /** No trim while a drain has read the file and not yet cut what it delivered. */
  private draining = false;

  constructor(private readonly dir: string, private readonly bounds: EventOutboxBounds, private readonly logger: Logger) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.bytes = sizeOf(this.file);
    // an estimate until the first drain reads the file: one line per 200 bytes
    this.count = Math.ceil(this.bytes / 200);
  }

  /** Events waiting on disk (an estimate after a restart, exact after the first drain). */
  get pending(): number {
    return this.count + this.inWrite + this.waiting.length;
  }

  /** Appends `line`; resolves once it is on disk (a failed write is logged and the event lost). */
  add(line: string): Promise<void> {
    this.waiting.push(line);
    this.writing ??= this.writeAll();
    return this.writing;
  }

  /** Publishes every stored line in order, `window` at a time; removes them once delivered. Resolves true when empty. */
  async drain(publish: PublishLine, window = 64): Promise<boolean> {
    this.draining = true;
    try {
      return await this.drainRounds(publish, window);
    } finally {
      this.draining = false;
    }
  }

  private async drainRounds(publish: PublishLine, window: number): Promise<boolean> {
    for (;;) {
      await this.writing;
      const end = sizeOf(this.file);
      if (end === 0) return true;
      let delivered = 0;
      const ok = await forEachLineBatch(this.file, end, window, async (lines, upTo) => {
        const results = await Promise.allSettled(lines.map(publish));
        if (results.some((r) => r.status === 'rejected')) return false;
        delivered = upTo;
        return true;
      });
      if (delivered > 0) await this.lock.run(() => this.cut(delivered));
      if (!ok) return false;
    }
  }

  private get file(): string {
    return join(this.dir, 'events.log');
  }

  private async writeAll(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.waiting;
      this.waiting = [];
      this.inWrite = batch.length;
      await this.lock.run(() => this.write(batch)).finally(() => (this.inWrite = 0));
    }
    this.writing = null;
  }

  private async write(batch: string[]): Promise<void> {
    const text = batch.map((l) => `${l}\n`).join('');
    try {
      const handle = await fs.open(this.file, 'a', 0o600);
      try {
        await handle.appendFile(text);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      this.count += batch.length;
      this.bytes += Buffer.byteLength(text);
      if (!this.draining && this.count > this.bounds.maxEvents * 1.25 || (!this.draining && this.bytes > this.bounds.maxBytes * 1.25)) await this.trim();
    } catch (err) {
      this.logger.warn('fleet outbox: events could not be stored and are lost', { count: batch.length, reason: (err as Error).message });
    }
  }

  /** Keeps the newest events within the bounds, behind a reset line; reads and writes in chunks, never the whole file. */
  private async trim(): Promise<void> {
    const from = await keptFrom(this.file, this.bounds);
    if (from === 0) return;
    const tally = { lines: 1, bytes: RESET_LINE.length + 1 };
    await writeFileAtomic(
      this.file,
      async (out) => {
        await out.write(`${RESET_LINE}\n`);
        await copyFrom(this.file, from, out, tally);
      },
      { backup: false },
    );
    this.count = tally.lines;
    this.bytes = tally.bytes;
  }

  /** Removes the first `delivered` bytes (lines appended meanwhile stay), copying the rest in chunks. */
  private async cut(delivered: number): Promise<void> {
    const tally = { lines: 0, bytes: 0 };
    await writeFileAtomic(this.file, (out) => copyFrom(this.file, delivered, out, tally), { backup: false });
    this.count = tally.lines;
    this.bytes = tally.bytes;
  }
}

/** Bytes read or copied at a time: the outbox never holds more of its file in memory (plus one line). */
const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Hands the complete lines of `file` below byte `end` to `each`, `size` at a time and in order, with the offset just past
 * the last line handed over; stops when `each` answers false. Resolves false then, true once every line was handed over.
 */
async function forEachLineBatch(file: string, end: number, size: number, each: (lines: string[], upTo: number) => Promise<boolean>): Promise<boolean> {
  const handle = await fs.open(file, 'r').catch(() => null);
  if (!handle) return true;
  try {
    let offset = 0;
    let consumed = 0;
    let carry = Buffer.alloc(0);
    let batch: string[] = [];
    while (offset < end) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, end - offset));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let start = 0;
      for (let nl = data.indexOf(NEWLINE, start); nl !== -1; nl = data.indexOf(NEWLINE, start)) {
        consumed += nl - start + 1;
        if (nl > start) batch.push(data.toString('utf8', start, nl));
        start = nl + 1;
        if (batch.length < size) continue;
        if (!(await each(batch, consumed))) return false;
        batch = [];
      }
      carry = Buffer.from(data.subarray(start));
    }
    return batch.length === 0 || each(batch, consumed);
  } finally {
    await handle.close();
  }
}

/** The offset of the oldest line to keep so that what follows holds at most `maxEvents` lines and `maxBytes` bytes. */
async function keptFrom(file: string, bounds: EventOutboxBounds): Promise<number> {
  const handle = await fs.open(file, 'r');
  try {
    const size = (await handle.stat()).size;
    let from = size;
    let kept = 0;
    for (let pos = size; pos > 0; ) {
      const start = Math.max(0, pos - CHUNK_BYTES);
      const chunk = Buffer.allocUnsafe(pos - start);
      await handle.read(chunk, 0, chunk.length, start);
      for (let i = chunk.length - 1; i >= -1; i -= 1) {
        const lineStart = start + i + 1;
        // a line starts after each newline (the file's last byte ends the newest line), and at the file's start
        if (i >= 0 && (chunk[i] !== NEWLINE || lineStart === size)) continue;
        if (i < 0 && start > 0) break;
        if (kept + 1 > bounds.maxEvents || size - lineStart > bounds.maxBytes) return from;
        kept += 1;
        from = lineStart;
      }
      pos = start;
    }
    return from;
  } finally {
    await handle.close();
  }
}

/** Copies `file` from byte `from` to its end into `out`, a chunk at a time, adding the lines and bytes to `tally`. */
async function copyFrom(file: string, from: number, out: FileHandle, tally: { lines: number; bytes: number }): Promise<void> {
  const source = await fs.open(file, 'r').catch(() => null);
  if (!source) return;
  try {
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    for (let offset = from; ; ) {
      const { bytesRead } = await source.read(chunk, 0, chunk.length, offset);
      if (bytesRead === 0) return;
      const part = chunk.subarray(0, bytesRead);
      await out.write(part);
      offset += bytesRead;
      tally.bytes += bytesRead;
      for (let nl = part.indexOf(NEWLINE); nl !== -1; nl = part.indexOf(NEWLINE, nl + 1)) tally.lines += 1;
    }
  } finally {
    await source.close();
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
