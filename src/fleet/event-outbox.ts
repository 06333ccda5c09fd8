// Events the fleet link could not publish (disconnected): an append-only journal on disk (DATA/fleet/events.log),
// bounded to the newest events (a `reset` line first when older ones had to go), drained in order on reconnect.
import { promises as fs, mkdirSync, statSync } from 'node:fs';
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

/** The journal; only its counts stay in memory, and appends are group-committed (one fsync per batch). */
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
      const text = await this.lock.run(() => fs.readFile(this.file, 'utf8').catch(() => ''));
      if (text.length === 0) return true;
      const lines = text.split('\n').filter((l) => l.length > 0);
      for (let i = 0; i < lines.length; i += window) {
        const results = await Promise.allSettled(lines.slice(i, i + window).map(publish));
        if (results.some((r) => r.status === 'rejected')) return false;
      }
      await this.lock.run(() => this.cut(Buffer.byteLength(text)));
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

  /** Keeps the newest events within the bounds, behind a reset line. */
  private async trim(): Promise<void> {
    const lines = (await fs.readFile(this.file, 'utf8')).split('\n').filter((l) => l.length > 0 && l !== RESET_LINE);
    const kept: string[] = [];
    let bytes = 0;
    for (let i = lines.length - 1; i >= 0 && kept.length < this.bounds.maxEvents; i -= 1) {
      bytes += Buffer.byteLength(lines[i]) + 1;
      if (bytes > this.bounds.maxBytes) break;
      kept.push(lines[i]);
    }
    const text = [RESET_LINE, ...kept.reverse()].map((l) => `${l}\n`).join('');
    await writeFileAtomic(this.file, text, { backup: false });
    this.count = kept.length + 1;
    this.bytes = Buffer.byteLength(text);
  }

  /** Removes the first `delivered` bytes (lines appended meanwhile stay). */
  private async cut(delivered: number): Promise<void> {
    const all = await fs.readFile(this.file).catch(() => Buffer.alloc(0));
    const rest = all.subarray(Math.min(delivered, all.length));
    await writeFileAtomic(this.file, rest, { backup: false });
    this.bytes = rest.length;
    this.count = rest.length === 0 ? 0 : rest.toString('utf8').split('\n').filter((l) => l.length > 0).length;
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}
