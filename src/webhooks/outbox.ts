// One webhook's durable outbox: an append-only journal (group-committed, fsynced), compacted atomically, bounded in size.
import { promises as fs } from 'node:fs';
import { Journal, type JournalPiece, type Rewritten } from '../journal/journal';
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

/**
 * Deliveries queued for one webhook, in the order they were added, kept in a Journal (group-committed, compacted). A
 * delivery is in the queue only once its line is on disk; only the queue's positions stay in memory, each event is read
 * back when it reaches the head. Done and dropped records leave the queue even when their own write fails (the delivery
 * may then be sent again after a restart: at-least-once).
 */
export class Outbox {
  /** Deliveries added and not yet done or dropped, whether on disk yet or still being written: what the bounds count. */
  private reservedCount = 0;
  private reservedBytes = 0;
  private closed = false;
  /** True from a refused event until one is taken again (one warning per episode). */
  private refusing = false;
  private head: Delivery | null = null;
  /** The queue as the compaction under way saw it: its offsets are moved by reference. */
  private compacting: PendingRef[] = [];

  private constructor(
    private readonly file: string,
    private readonly journal: Journal,
    private readonly bounds: OutboxBounds,
    private readonly logger: Logger,
    private readonly queue: PendingRef[],
    private droppedCount: number,
    private nextSeq: number,
  ) {
    this.reservedCount = queue.length;
    this.reservedBytes = liveBytes(queue);
  }

  /** Opens (or starts) the journal at `file`, replaying it; rewrites it first when it holds done, dropped or unreadable lines. */
  static async open(file: string, bounds: OutboxBounds, logger: Logger): Promise<Outbox> {
    let outbox: Outbox | null = null;
    const journal = await Journal.open(file, logger, {
      aboveBytes: bounds.compactAboveBytes,
      liveBytes: () => outbox!.liveJournalBytes(),
      live: () => outbox!.livePieces(),
      moved: (rewritten) => outbox!.moved(rewritten),
    });
    const replayed = await replayJournal(journal.replay());
    if (replayed.unreadable > 0) logger.warn('webhook outbox: unreadable journal lines skipped', { file, lines: replayed.unreadable });
    outbox = new Outbox(file, journal, bounds, logger, replayed.pending, replayed.dropped, replayed.nextSeq);
    if (replayed.obsolete > 0) await outbox.compactNow();
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
    const bytes = Buffer.byteLength(line);
    if (this.closed) return Promise.resolve(false);
    if (this.reservedCount + 1 > this.bounds.maxPending || this.reservedBytes + bytes > this.bounds.maxBytes) return this.refuse(deliveryId);
    this.nextSeq += 1;
    this.reservedCount += 1;
    this.reservedBytes += bytes;
    this.refusing = false;
    const queued = (offset: number) => void this.queue.push({ seq, deliveryId, firstAt: now, offset, length: bytes });
    return this.journal.append(line, queued).then(
      () => true,
      () => {
        this.release(bytes);
        this.droppedCount += 1;
        return false;
      },
    );
  }

  /** The oldest pending delivery with its event, or null when none; a line that no longer reads back is dropped (logged). */
  async first(): Promise<Delivery | null> {
    for (;;) {
      const ref = this.queue[0];
      if (!ref) return null;
      if (this.head?.seq === ref.seq) return this.head;
      const line = await this.journal.read(ref.offset, ref.length);
      const event = line === null ? null : eventOfLine(line);
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
    await this.journal.close();
  }

  /** Closes, then deletes the journal (its webhook was deleted), and the backup an older version may have left. */
  async remove(): Promise<void> {
    this.closed = true;
    await this.journal.remove();
    await fs.rm(`${this.file}.bak`, { force: true });
  }

  private refuse(deliveryId: string): Promise<boolean> {
    if (!this.refusing) this.logger.warn('webhook outbox full; new events are dropped until deliveries leave it', { file: this.file, deliveryId, pending: this.reservedCount });
    this.refusing = true;
    const counted = () => {
      this.droppedCount += 1;
      return false;
    };
    return this.journal.append(recordLine({ op: 'dropped', count: 1 })).then(counted, counted);
  }

  /** Appends the end of delivery `seq` and, in the same step (before any compaction), takes it out of the queue. */
  private settle(record: JournalRecord & { seq: number }, seq: number): Promise<void> {
    const leave = () => {
      if (record.op === 'dropped') this.droppedCount += record.count;
      const index = this.queue.findIndex((ref) => ref.seq === seq);
      if (index === -1) return;
      const [ref] = this.queue.splice(index, 1);
      if (this.head?.seq === seq) this.head = null;
      this.release(ref.length);
    };
    return this.journal.append(recordLine(record), leave).then(
      () => undefined,
      () => {
        this.logger.warn('webhook outbox: could not record the end of a delivery; it may be sent again after a restart', { file: this.file, seq });
        leave();
      },
    );
  }

  private release(bytes: number): void {
    this.reservedBytes -= bytes;
    this.reservedCount -= 1;
  }

  /** A failure leaves the journal as it was, to be compacted after a later write. */
  private async compactNow(): Promise<void> {
    await this.journal.rewrite(() => this.livePieces(), (rewritten) => this.moved(rewritten)).catch((err: Error) => {
      this.logger.warn('webhook outbox: compaction failed; the journal keeps growing until the next one', { file: this.file, reason: err.message });
    });
  }

  /** What a compacted journal holds: the dropped count, then each pending line. */
  private liveJournalBytes(): number {
    return this.countLine().length + liveBytes(this.queue) + this.queue.length;
  }

  private livePieces(): JournalPiece[] {
    this.compacting = [...this.queue];
    const count = this.countLine();
    return [{ text: count }, ...this.compacting.map((ref) => ({ from: ref.offset, to: ref.offset + ref.length + 1 }))];
  }

  private moved(rewritten: Rewritten): void {
    this.compacting.forEach((ref, i) => (ref.offset = rewritten.starts[i + 1]));
    this.compacting = [];
  }

  private countLine(): string {
    return this.droppedCount > 0 ? `${recordLine({ op: 'dropped', count: this.droppedCount })}\n` : '';
  }
}

function liveBytes(queue: PendingRef[]): number {
  return queue.reduce((sum, ref) => sum + ref.length, 0);
}
