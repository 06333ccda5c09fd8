// One webhook's durable outbox: an append-only journal (group-committed, fsynced), compacted atomically, bounded in size.
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../settings/atomic-file';
import { Mutex } from '../util/mutex';
import type { Logger } from '../log';
import { eventOfLine, recordLine, replayJournal, type JournalRecord, type PendingRef } from './journal-records';
import type { WebhookEvent } from './webhook-event';

/** Most deliveries one outbox holds; beyond either bound new events are refused and counted as dropped. */
export interface OutboxBounds {
  maxPending: number;
  /** Bytes of pending journal lines. */
  maxBytes: number;
  /** The journal is rewritten with only its pending lines once it is larger than this and twice those lines. */
  compactAboveBytes: number;
}

/** The daemon's bounds: 10,000 deliveries or 4 MiB of them per webhook; compaction from 256 KiB of journal. */
export const DEFAULT_OUTBOX_BOUNDS: OutboxBounds = { maxPending: 10_000, maxBytes: 4 * 1024 * 1024, compactAboveBytes: 256 * 1024 };

/** A pending delivery with its event read back from the journal. */
export interface Delivery {
  seq: number;
  deliveryId: string;
  firstAt: number;
  event: WebhookEvent;
}

interface Waiting {
  line: string;
  /** Called with the line's offset in the journal once it is on disk, or null when the write failed. */
  settle: (at: number | null) => void;
}

/**
 * Deliveries queued for one webhook, in the order they were added. A delivery is in the queue only once its line is on disk
 * (fsynced); only the queue's positions stay in memory, each event is read back when it reaches the head. Appends that
 * arrive while a write is under way go out together in the next write (one fsync). Done and dropped records leave the
 * queue even when their own write fails (the delivery may then be sent again after a restart: at-least-once).
 */
export class Outbox {
  private readonly lock = new Mutex();
  private waiting: Waiting[] = [];
  private drained: Promise<void> | null = null;
  private handle: FileHandle | null = null;
  /** Deliveries added and not yet done or dropped, whether on disk yet or still being written: what the bounds count. */
  private reservedCount = 0;
  private reservedBytes = 0;
  private tornTail = false;
  private closed = false;
  /** True from a refused event until one is taken again (one warning per episode). */
  private refusing = false;
  private head: Delivery | null = null;

  private constructor(
    private readonly file: string,
    private readonly bounds: OutboxBounds,
    private readonly logger: Logger,
    private queue: PendingRef[],
    private droppedCount: number,
    private nextSeq: number,
    private fileBytes: number,
  ) {
    this.reservedCount = queue.length;
    this.reservedBytes = liveBytes(queue);
  }

  /** Opens (or starts) the journal at `file`, replaying it; rewrites it first when it holds done, dropped or torn lines. */
  static async open(file: string, bounds: OutboxBounds, logger: Logger): Promise<Outbox> {
    const bytes = await readOrEmpty(file);
    const replayed = replayJournal(bytes);
    if (replayed.unreadable > 0) logger.warn('webhook outbox: unreadable journal lines skipped (a torn write)', { file, lines: replayed.unreadable });
    const outbox = new Outbox(file, bounds, logger, replayed.pending, replayed.dropped, replayed.nextSeq, bytes.length);
    outbox.tornTail = bytes.length > 0 && bytes[bytes.length - 1] !== NEWLINE[0];
    if (replayed.obsolete > 0) await outbox.lock.run(() => outbox.compactOr(bytes));
    return outbox;
  }

  /** Deliveries on disk and not yet done or dropped. */
  get pending(): number {
    return this.queue.length;
  }

  /** Deliveries given up (past the horizon, refused when full, or not stored). */
  get dropped(): number {
    return this.droppedCount;
  }

  /** Queues `event` under `deliveryId`; true once it is on disk, false when refused (full, closed) or not stored (counted as dropped). */
  add(deliveryId: string, event: WebhookEvent, now: number): Promise<boolean> {
    const seq = this.nextSeq;
    const line = recordLine({ op: 'pending', seq, deliveryId, firstAt: now, event });
    const bytes = Buffer.byteLength(line) - 1;
    if (this.closed) return Promise.resolve(false);
    if (this.reservedCount + 1 > this.bounds.maxPending || this.reservedBytes + bytes > this.bounds.maxBytes) return this.refuse(deliveryId);
    this.nextSeq += 1;
    this.reservedCount += 1;
    this.reservedBytes += bytes;
    this.refusing = false;
    return this.append(line, (at) => {
      if (at !== null) this.queue.push({ seq, deliveryId, firstAt: now, offset: at, length: bytes });
      else this.release(bytes, 1);
      if (at === null) this.droppedCount += 1;
      return at !== null;
    });
  }

  /** The oldest pending delivery with its event, or null when none; a line that no longer reads back is dropped (logged). */
  async first(): Promise<Delivery | null> {
    for (;;) {
      const ref = this.queue[0];
      if (!ref) return null;
      if (this.head?.seq === ref.seq) return this.head;
      const event = await this.lock.run(() => this.readEvent(ref));
      if (event) return (this.head = { seq: ref.seq, deliveryId: ref.deliveryId, firstAt: ref.firstAt, event });
      this.logger.warn('webhook outbox: a pending delivery no longer reads back; dropped', { file: this.file, deliveryId: ref.deliveryId });
      await this.drop(ref.seq);
    }
  }

  /** Records that the delivery `seq` was delivered and takes it out of the queue. */
  done(seq: number): Promise<void> {
    return this.settle({ op: 'done', seq }, seq);
  }

  /** Records that the delivery `seq` was given up (counted in `dropped`) and takes it out of the queue. */
  drop(seq: number): Promise<void> {
    return this.settle({ op: 'dropped', count: 1, seq }, seq);
  }

  /** Refuses new deliveries, waits for the writes under way, and closes the journal. */
  async close(): Promise<void> {
    this.closed = true;
    await this.drained;
    await this.lock.run(async () => {
      await this.handle?.close().catch(() => undefined);
      this.handle = null;
    });
  }

  /** Closes, then deletes the journal (its webhook was deleted). */
  async remove(): Promise<void> {
    await this.close();
    await Promise.all([fs.rm(this.file, { force: true }), fs.rm(`${this.file}.bak`, { force: true })]);
  }

  private refuse(deliveryId: string): Promise<boolean> {
    if (!this.refusing) this.logger.warn('webhook outbox full; new events are dropped until deliveries leave it', { file: this.file, deliveryId, pending: this.reservedCount });
    this.refusing = true;
    return this.append(recordLine({ op: 'dropped', count: 1 }), () => {
      this.droppedCount += 1;
      return false;
    });
  }

  /** Appends the end of delivery `seq` and, in the same step (before any compaction), takes it out of the queue. */
  private settle(record: JournalRecord & { seq: number }, seq: number): Promise<void> {
    return this.append(recordLine(record), (at) => {
      if (at === null) this.logger.warn('webhook outbox: could not record the end of a delivery; it may be sent again after a restart', { file: this.file, seq });
      if (record.op === 'dropped') this.droppedCount += record.count;
      const index = this.queue.findIndex((ref) => ref.seq === seq);
      if (index === -1) return;
      const [ref] = this.queue.splice(index, 1);
      if (this.head?.seq === seq) this.head = null;
      this.release(ref.length, 1);
    });
  }

  private release(bytes: number, count: number): void {
    this.reservedBytes -= bytes;
    this.reservedCount -= count;
  }

  /** Adds `line` to the next write; `settle` runs with its offset (null: not stored) before the promise resolves. */
  private append<T>(line: string, settle: (at: number | null) => T): Promise<T> {
    return new Promise<T>((resolve) => {
      this.waiting.push({ line, settle: (at) => resolve(settle(at)) });
      this.drained ??= this.drain();
    });
  }

  /** Writes what is waiting, batch after batch, each under the lock with one fsync; compacts between batches when worth it. */
  private async drain(): Promise<void> {
    for (;;) {
      if (this.waiting.length === 0) {
        // in the same tick as the check: a line appended from here on starts the next drain
        this.drained = null;
        return;
      }
      const batch = this.waiting;
      this.waiting = [];
      await this.lock.run(async () => {
        const text = batch.map((w) => w.line).join('');
        const stored = await this.write(text);
        let offset = this.fileBytes - Buffer.byteLength(text);
        for (const entry of batch) {
          entry.settle(stored ? offset : null);
          offset += Buffer.byteLength(entry.line);
        }
        if (stored && this.fileBytes > Math.max(this.bounds.compactAboveBytes, 2 * liveBytes(this.queue))) await this.compactOr(null);
      });
    }
  }

  /** Appends `text` and fsyncs; true when both succeeded. A failed write is cut off again so the next line starts clean. */
  private async write(text: string): Promise<boolean> {
    const data = this.tornTail ? `\n${text}` : text;
    try {
      const handle = await this.journal();
      await handle.appendFile(data);
      await handle.datasync();
      this.fileBytes += Buffer.byteLength(data);
      this.tornTail = false;
      return true;
    } catch (err) {
      this.logger.warn('webhook outbox: journal write failed', { file: this.file, reason: (err as Error).message });
      this.tornTail = !(await this.handle?.truncate(this.fileBytes).then(() => true, () => false));
      return false;
    }
  }

  /** Opens the journal for appending and reading; the first time it is created, its folder is synced so the name survives a power cut. */
  private async journal(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    const handle = await fs.open(this.file, 'a+', 0o600);
    this.handle = handle;
    if (this.fileBytes === 0) await syncDir(dirname(this.file));
    return handle;
  }

  private async readEvent(ref: PendingRef): Promise<WebhookEvent | null> {
    const handle = await this.journal();
    const line = Buffer.alloc(ref.length);
    const { bytesRead } = await handle.read(line, 0, ref.length, ref.offset);
    return bytesRead === ref.length ? eventOfLine(line) : null;
  }

  /** Compacts `bytes` (the journal as it is; read when null); a failure leaves the journal as it was, to be compacted next time. */
  private async compactOr(bytes: Buffer | null): Promise<void> {
    try {
      await this.compact(bytes ?? (await fs.readFile(this.file)));
    } catch (err) {
      this.logger.warn('webhook outbox: compaction failed; the journal keeps growing until the next one', { file: this.file, reason: (err as Error).message });
    }
  }

  /** Rewrites the journal (atomically) as the dropped count and the pending lines of `bytes`; offsets change only after. */
  private async compact(bytes: Buffer): Promise<void> {
    const parts: Buffer[] = this.droppedCount > 0 ? [Buffer.from(recordLine({ op: 'dropped', count: this.droppedCount }))] : [];
    let offset = parts[0]?.length ?? 0;
    const offsets: number[] = [];
    // the queue does not change meanwhile (every change settles under the lock this runs under); offsets are set by reference anyway
    const live = [...this.queue];
    for (const ref of live) {
      parts.push(bytes.subarray(ref.offset, ref.offset + ref.length), NEWLINE);
      offsets.push(offset);
      offset += ref.length + 1;
    }
    await this.handle?.close().catch(() => undefined);
    this.handle = null;
    await writeFileAtomic(this.file, Buffer.concat(parts));
    // the previous journal is of no use once the new one is in place
    await fs.rm(`${this.file}.bak`, { force: true }).catch(() => undefined);
    live.forEach((ref, i) => (ref.offset = offsets[i]));
    this.fileBytes = offset;
    this.tornTail = false;
  }
}

const NEWLINE = Buffer.from('\n');

function liveBytes(queue: PendingRef[]): number {
  return queue.reduce((sum, ref) => sum + ref.length, 0);
}

/** Best effort: some filesystems refuse to open or fsync a folder. */
async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r').catch(() => null);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close().catch(() => undefined);
}

async function readOrEmpty(file: string): Promise<Buffer> {
  try {
    return await fs.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
    throw err;
  }
}
