// Finished job records kept in columns for the hour they stay retained: about half a record object's memory (a third
// of a record made from a request), since times and numbers sit in typed arrays and repeated strings (printer paths,
// targets, codes) are held once.
import type { JobRecord } from '../schemas/job';

/** Numbers per slot in the times column: createdAt, completedAt, printedAt (ms, NaN for null), size, cupsJobId (NaN unless numeric). */
const NUMBERS = 5;
/** Strings per slot: jobId, printer, target, title, source, error, errorCode, contentType, cupsJobId (when not numeric). */
const STRINGS = 9;
/** The string columns whose values repeat across jobs (printer, target, errorCode, contentType): held once each. */
const SHARED = new Set([1, 2, 6, 7]);
/** Most distinct strings shared that way; past it a string is kept as it came. */
const MAX_INTERNED = 1024;

/** Slots of finished records: `pack` stores one (or overwrites a slot), `unpack` rebuilds it, `release` frees the slot. */
export class PackedJobs {
  private numbers = new Float64Array(0);
  private failed = new Uint8Array(0);
  private readonly strings: Array<string | null> = [];
  private readonly freeSlots: number[] = [];
  private readonly interned = new Map<string, string>();
  private slots = 0;

  /**
   * Stores a finished `job` in `slot` (a new slot when omitted) and returns the slot; -1 when the record cannot be
   * rebuilt exactly from columns (an unfinished state, or a time that is not an ISO string of its own value).
   */
  pack(job: JobRecord, slot?: number): number {
    const times = [exactTime(job.createdAt), job.completedAt === null ? Number.NaN : exactTime(job.completedAt), job.printedAt === null ? Number.NaN : exactTime(job.printedAt)];
    if ((job.state !== 'completed' && job.state !== 'failed') || times.some((t) => t === undefined)) return -1;
    const at = slot ?? this.take();
    const cups = job.cupsJobId !== null && String(Number(job.cupsJobId)) === job.cupsJobId ? Number(job.cupsJobId) : Number.NaN;
    this.numbers.set([times[0]!, times[1]!, times[2]!, job.size, cups], at * NUMBERS);
    this.failed[at] = job.state === 'failed' ? 1 : 0;
    const texts = [job.jobId, job.printer, job.target, job.title, job.source, job.error, job.errorCode, job.contentType, Number.isNaN(cups) ? job.cupsJobId : null];
    for (let i = 0; i < STRINGS; i += 1) this.strings[at * STRINGS + i] = SHARED.has(i) ? this.intern(texts[i]) : texts[i];
    return at;
  }

  /** The record held in `slot`, as a new object. */
  unpack(slot: number): JobRecord {
    const n = (i: number) => this.numbers[slot * NUMBERS + i];
    const s = (i: number) => this.strings[slot * STRINGS + i];
    const time = (i: number) => (Number.isNaN(n(i)) ? null : new Date(n(i)).toISOString());
    return {
      jobId: s(0)!,
      printer: s(1)!,
      target: s(2)!,
      title: s(3)!,
      source: s(4),
      state: this.failed[slot] === 1 ? 'failed' : 'completed',
      error: s(5),
      errorCode: s(6) as JobRecord['errorCode'],
      createdAt: time(0)!,
      completedAt: time(1),
      contentType: s(7)!,
      size: n(3),
      cupsJobId: Number.isNaN(n(4)) ? s(8) : String(n(4)),
      printedAt: time(2),
    };
  }

  /** Creation time of the record in `slot`, in ms. */
  createdMs(slot: number): number {
    return this.numbers[slot * NUMBERS];
  }

  /** Frees `slot` for a later record (its strings are let go). */
  release(slot: number): void {
    this.strings.fill(null, slot * STRINGS, (slot + 1) * STRINGS);
    this.freeSlots.push(slot);
  }

  private take(): number {
    const free = this.freeSlots.pop();
    if (free !== undefined) return free;
    if (this.slots * NUMBERS === this.numbers.length) this.grow();
    return this.slots++;
  }

  private grow(): void {
    const capacity = Math.max(64, this.slots * 2);
    const numbers = new Float64Array(capacity * NUMBERS);
    numbers.set(this.numbers);
    this.numbers = numbers;
    const failed = new Uint8Array(capacity);
    failed.set(this.failed);
    this.failed = failed;
  }

  private intern(text: string | null): string | null {
    if (text === null) return null;
    const held = this.interned.get(text);
    if (held !== undefined) return held;
    if (this.interned.size < MAX_INTERNED && text.length <= 128) this.interned.set(text, text);
    return text;
  }
}

/** The ms of an ISO time string that `toISOString` gives back exactly, else undefined. */
function exactTime(iso: string): number | undefined {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) || new Date(ms).toISOString() !== iso ? undefined : ms;
}
