// The idempotency keys of job routes on disk (DATA/spool/keys.log): each key with the jobs it created and, once they end,
// their final records; kept for the key lifetime (seed: 1 hour) across restarts, for HTTP and the fleet's MQTT alike.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { Journal, type JournalPiece } from '../journal/journal';
import type { Logger } from '../log';
import type { JobRecord } from '../schemas/job';

/** One key: when it was first used, and its jobs (as created; each replaced by its final record once it ended). */
export interface KeyEntry {
  key: string;
  at: number;
  jobs: JobRecord[];
}

/** Limits of the keys kept. */
export interface KeyJournalOptions {
  /** How long a key is kept, ms (the job store's retention: seed 8, 1 hour). */
  lifetimeMs: number;
  /** Most keys kept; beyond, the oldest are forgotten. */
  maxKeys: number;
  now: () => number;
}

/** A journal line: a key's jobs as created, one job's final record, or a key given up (its submission was refused). */
type KeyLine = { k: string; at: number; jobs: JobRecord[] } | { k: string; job: JobRecord } | { k: string; gone: true };

/** The journal is compacted once it is larger than this and twice its live keys. */
const COMPACT_ABOVE_BYTES = 256 * 1024;

/** Where one line of a key lies in the journal (newline excluded). */
interface LineRef {
  offset: number;
  length: number;
}

/**
 * The keys; memory holds only when each was first used and where its lines lie (the job records stay on disk until a
 * restart reads them back). Memory changes only once a line is on disk (a failed write rejects and changes nothing).
 */
export class KeyJournal {
  /** Live keys in the order they were first used. */
  private readonly keys = new Map<string, { at: number; lines: LineRef[] }>();
  private liveBytes = 0;
  /** The lines the compaction under way copies: their offsets are moved by reference. */
  private compacting: LineRef[] = [];
  private journal!: Journal;

  private constructor(
    private readonly options: KeyJournalOptions,
    /** The live keys as the journal held them at open, until restored() hands them over. */
    private opened: Map<string, KeyEntry>,
  ) {}

  /** Opens (or starts) the journal at `file` and replays it, leaving out the keys past their lifetime. */
  static async open(file: string, options: KeyJournalOptions, logger: Logger): Promise<KeyJournal> {
    // a partition that refuses the folder (read-only, full) fails each write instead: keys are then kept in memory only
    tryMkdir(dirname(file));
    const keys = new KeyJournal(options, new Map());
    keys.journal = await Journal.open(file, logger, {
      aboveBytes: COMPACT_ABOVE_BYTES,
      liveBytes: () => keys.liveBytes,
      live: () => keys.livePieces(),
      moved: (rewritten) => keys.compacting.forEach((ref, i) => (ref.offset = rewritten.starts[i])),
    });
    for await (const { text, offset, length } of keys.journal.replay()) {
      const line = parseLine(text);
      if (line) keys.apply(line, { offset, length }, keys.opened);
      else logger.warn('idempotency keys: an unreadable line skipped', { file });
    }
    for (const key of keys.opened.keys()) if (!keys.keys.has(key)) keys.opened.delete(key);
    return keys;
  }

  /** The live keys with their jobs as the journal held them at open, oldest first; once (a second call gets none). */
  restored(): KeyEntry[] {
    const entries = [...this.opened.values()].filter((entry) => this.keys.has(entry.key));
    this.opened = new Map();
    return entries;
  }

  /** Stores that `key` created `jobs` (their records as created); resolves once it is on disk. */
  created(key: string, jobs: JobRecord[]): Promise<void> {
    return this.append({ k: key, at: this.options.now(), jobs });
  }

  /** Stores the final record of `job`, one of `key`'s; resolves once it is on disk. */
  ended(key: string, job: JobRecord): Promise<void> {
    return this.append({ k: key, job });
  }

  /** Forgets `key` (its submission was refused: it may be sent again); resolves once it is on disk. */
  forget(key: string): Promise<void> {
    return this.append({ k: key, gone: true });
  }

  /** Waits for the writes under way and closes the journal. */
  close(): Promise<void> {
    return this.journal.close();
  }

  private async append(line: KeyLine): Promise<void> {
    const text = JSON.stringify(line);
    await this.journal.append(text, (offset) => this.apply(line, { offset, length: Buffer.byteLength(text) }, null));
  }

  /** Applies one line at `ref`; at open, `entries` collects the job records too. */
  private apply(line: KeyLine, ref: LineRef, entries: Map<string, KeyEntry> | null): void {
    const held = this.keys.get(line.k);
    if ('gone' in line) this.drop(line.k);
    else if ('jobs' in line) this.add(line.k, { at: line.at, lines: [ref] });
    else if (held) this.addLine(held.lines, ref);
    if (entries) collect(entries, line);
    this.evict();
  }

  private add(key: string, value: { at: number; lines: LineRef[] }): void {
    this.drop(key);
    this.keys.set(key, value);
    this.liveBytes += value.lines[0].length + 1;
  }

  private addLine(lines: LineRef[], ref: LineRef): void {
    lines.push(ref);
    this.liveBytes += ref.length + 1;
  }

  private drop(key: string): void {
    for (const ref of this.keys.get(key)?.lines ?? []) this.liveBytes -= ref.length + 1;
    this.keys.delete(key);
  }

  private livePieces(): JournalPiece[] {
    this.compacting = [...this.keys.values()].flatMap((value) => value.lines);
    return this.compacting.map((ref) => ({ from: ref.offset, to: ref.offset + ref.length + 1 }));
  }

  /** Forgets the keys past their lifetime and, beyond `maxKeys`, the oldest. */
  private evict(): void {
    const now = this.options.now();
    for (const [key, { at }] of this.keys) {
      if (now - at < this.options.lifetimeMs && this.keys.size <= this.options.maxKeys) break;
      this.drop(key);
    }
  }
}

function tryMkdir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    // refused: see open()
  }
}

/** Folds a replayed line into the entries it describes. */
function collect(entries: Map<string, KeyEntry>, line: KeyLine): void {
  const held = entries.get(line.k);
  if ('gone' in line) entries.delete(line.k);
  else if ('jobs' in line) entries.set(line.k, { key: line.k, at: line.at, jobs: line.jobs });
  else if (held) held.jobs = held.jobs.map((job) => (job.jobId === line.job.jobId ? line.job : job));
}

function parseLine(text: string): KeyLine | null {
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    if (typeof value?.k !== 'string') return null;
    if (Array.isArray(value.jobs) && typeof value.at === 'number') return value as KeyLine;
    if (typeof value.job === 'object' && value.job !== null) return value as KeyLine;
    return value.gone === true ? (value as KeyLine) : null;
  } catch {
    return null;
  }
}
