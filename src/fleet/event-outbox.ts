// Events the fleet link could not publish (disconnected): a Journal on disk (DATA/fleet/events.log), bounded to the
// newest events (a `reset` line first when older ones had to go), drained in order on reconnect.
import { promises as fs, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import { Journal } from '../journal/journal';

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

/** The journal; only its counts stay in memory (the file is read and rewritten in chunks). */
export class EventOutbox {
  /** Lines appended and not yet on disk (counted as pending already). */
  private unstored = 0;
  /** The last append and the last trim: what a drain waits for. */
  private lastAdd: Promise<void> = Promise.resolve();
  private trimming: Promise<void> | null = null;
  /** No trim while a drain has read the file and not yet cut what it delivered. */
  private draining = false;

  private constructor(
    private readonly journal: Journal,
    private readonly file: string,
    private count: number,
    private readonly bounds: EventOutboxBounds,
    private readonly logger: Logger,
  ) {}

  /** Opens (or starts) DIR/events.log. */
  static async open(dir: string, bounds: EventOutboxBounds, logger: Logger): Promise<EventOutbox> {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'events.log');
    const journal = await Journal.open(file, logger);
    // an estimate until the first drain reads the file: one line per 200 bytes
    return new EventOutbox(journal, file, Math.ceil(journal.size / 200), bounds, logger);
  }

  /** Events waiting on disk (an estimate after a restart, exact after the first drain). */
  get pending(): number {
    return this.count + this.unstored;
  }

  /** Appends `line`; resolves once it is on disk (a failed write is logged and the event lost). */
  add(line: string): Promise<void> {
    this.unstored += 1;
    const stored = () => {
      this.unstored -= 1;
      this.count += 1;
      this.trimWhenOver();
    };
    const added = this.journal.append(line, stored).then(
      () => undefined,
      (err: Error) => {
        this.unstored -= 1;
        this.logger.warn('fleet outbox: an event could not be stored and is lost', { reason: err.message });
      },
    );
    this.lastAdd = added;
    return added;
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
      await this.lastAdd;
      await this.trimming;
      const end = this.journal.size;
      if (end === 0) return true;
      const { delivered, ok } = await this.publishUpTo(end, publish, window);
      if (delivered > 0) await this.cut(delivered);
      if (!ok) return false;
    }
  }

  /** Publishes the lines below `end`, `window` at a time, until one fails; how far they were all delivered. */
  private async publishUpTo(end: number, publish: PublishLine, window: number): Promise<{ delivered: number; ok: boolean }> {
    let delivered = 0;
    let batch: string[] = [];
    let upTo = 0;
    const send = async () => {
      const results = await Promise.allSettled(batch.map(publish));
      batch = [];
      if (results.some((r) => r.status === 'rejected')) return false;
      delivered = upTo;
      return true;
    };
    for await (const line of this.journal.replay(0, end)) {
      batch.push(line.text);
      upTo = line.offset + line.length + 1;
      if (batch.length >= window && !(await send())) return { delivered, ok: false };
    }
    const ok = batch.length === 0 || (await send());
    return { delivered, ok };
  }

  private trimWhenOver(): void {
    const over = this.count > this.bounds.maxEvents * 1.25 || this.journal.size > this.bounds.maxBytes * 1.25;
    if (!over || this.draining || this.trimming) return;
    this.trimming = this.trim().finally(() => (this.trimming = null));
  }

  /** Keeps the newest events within the bounds, behind a reset line; reads and writes in chunks, never the whole file. */
  private async trim(): Promise<void> {
    const plan = async () => {
      const from = await keptFrom(this.file, this.bounds);
      return from === 0 ? null : [{ text: `${RESET_LINE}\n` }, { from, to: Infinity }];
    };
    await this.journal.rewrite(plan, (r) => (this.count = r.lines)).catch((err: Error) => {
      this.logger.warn('fleet outbox: could not trim the events journal', { reason: err.message });
    });
  }

  /** Removes the first `delivered` bytes (lines appended meanwhile stay), copying the rest in chunks. */
  private async cut(delivered: number): Promise<void> {
    await this.journal.rewrite(() => [{ from: delivered, to: Infinity }], (r) => (this.count = r.lines));
  }
}

/** Bytes read at a time: the outbox never holds more of its file in memory (plus one line). */
const CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

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

