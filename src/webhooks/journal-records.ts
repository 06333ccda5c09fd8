// The outbox journal's lines: one JSON record per line (pending, done, dropped), and replaying them into what is still pending.
import type { JournalLine } from '../journal/journal';
import type { WebhookEvent } from './webhook-event';

/** One journal line: a delivery queued, one delivered, or deliveries given up (`seq`: that pending one; none: refused ones). */
export type JournalRecord =
  | { op: 'pending'; seq: number; deliveryId: string; firstAt: number; event: WebhookEvent }
  | { op: 'done'; seq: number }
  | { op: 'dropped'; count: number; seq?: number };

/** A pending delivery and where its line lies in the journal (its event stays on disk until it is sent). */
export interface PendingRef {
  seq: number;
  deliveryId: string;
  /** When it was queued (ms since the epoch): the retry horizon counts from here, across restarts. */
  firstAt: number;
  /** Byte offset and length (without the newline) of its `pending` line. */
  offset: number;
  length: number;
}

/** What a journal holds once replayed. */
export interface Replayed {
  /** Still pending, in queue (seq) order. */
  pending: PendingRef[];
  dropped: number;
  /** Lines that did not parse (foreign or damaged); skipped. */
  unreadable: number;
  /** Lines that compaction would leave out (done, dropped with a seq, unreadable, more than one count). */
  obsolete: number;
  nextSeq: number;
}

/** The line of `record` (no newline). */
export function recordLine(record: JournalRecord): string {
  return JSON.stringify(record);
}

/** Replays a whole journal's lines. */
export async function replayJournal(lines: AsyncIterable<JournalLine>): Promise<Replayed> {
  const pending = new Map<number, PendingRef>();
  const tally = { dropped: 0, unreadable: 0, lines: 0, counts: 0, nextSeq: 1 };
  for await (const { text, offset, length } of lines) {
    tally.lines += 1;
    const record = parseRecord(text);
    if (!record) tally.unreadable += 1;
    if (record?.op === 'pending') pending.set(record.seq, { seq: record.seq, deliveryId: record.deliveryId, firstAt: record.firstAt, offset, length });
    if (record?.op === 'done') pending.delete(record.seq);
    if (record?.op === 'dropped') {
      tally.dropped += record.count;
      tally.counts += record.seq === undefined ? 1 : 0;
      if (record.seq !== undefined) pending.delete(record.seq);
    }
    if (record && record.seq !== undefined) tally.nextSeq = Math.max(tally.nextSeq, record.seq + 1);
  }
  const ordered = [...pending.values()].sort((a, b) => a.seq - b.seq);
  const obsolete = tally.lines - ordered.length - Math.min(tally.counts, 1);
  return { pending: ordered, dropped: tally.dropped, unreadable: tally.unreadable, obsolete, nextSeq: tally.nextSeq };
}

/** The event of a `pending` line read back; null when the line is not one (the file changed under us). */
export function eventOfLine(line: string): WebhookEvent | null {
  const record = parseRecord(line);
  return record?.op === 'pending' ? record.event : null;
}

/** A record when `line` is one (a torn or foreign line is null). */
function parseRecord(line: string): JournalRecord | null {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return null;
  }
  return isRecord(value) ? value : null;
}

function isRecord(value: unknown): value is JournalRecord {
  if (typeof value !== 'object' || value === null) return false;
  const r = value as Record<string, unknown>;
  const seqOk = Number.isInteger(r.seq) && (r.seq as number) > 0;
  switch (r.op) {
    case 'pending':
      return seqOk && typeof r.deliveryId === 'string' && typeof r.firstAt === 'number' && isEvent(r.event);
    case 'done':
      return seqOk;
    case 'dropped':
      return Number.isInteger(r.count) && (r.count as number) > 0 && (r.seq === undefined || seqOk);
    default:
      return false;
  }
}

function isEvent(value: unknown): value is WebhookEvent {
  if (typeof value !== 'object' || value === null) return false;
  const e = value as Record<string, unknown>;
  return Number.isInteger(e.id) && typeof e.type === 'string' && typeof e.time === 'string' && 'data' in e;
}
