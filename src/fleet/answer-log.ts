// The fleet's de-duplication store (fleet.md "Exactly once"): for each idempotency key, the jobs it created and, once
// known, the answer; an append-only, fsynced journal in DATA/fleet/answers.log, compacted atomically, bounded.
import { promises as fs, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import { writeFileAtomic } from '../settings/atomic-file';
import { Mutex } from '../util/mutex';

/** Where and how the answer to one request goes: its id, topic and MQTT 5 correlation data (base64). */
export interface ReplyRoute {
  /** null for a request that is not JSON or has no id. */
  id: string | number | null;
  topic: string;
  correlation: string | null;
}

/** A key whose jobs are spooled and whose answer comes when they end. */
export interface AcceptedEntry {
  state: 'accepted';
  key: string;
  at: number;
  module: string;
  jobIds: string[];
  reply: ReplyRoute;
}

/** A key whose answer is known: replayed as it is to a request carrying the key again. */
export interface AnsweredEntry {
  state: 'answered';
  key: string;
  at: number;
  status: number;
  body: unknown;
}

/** One key's entry. */
export type AnswerEntry = AcceptedEntry | AnsweredEntry;

/** Bounds of the store. */
export interface AnswerLogBounds {
  /** How long an answered key is kept, ms (at least the session expiry: the broker may redeliver that long). */
  retentionMs: () => number;
  /** Most answered keys kept; beyond, the oldest are forgotten. */
  maxEntries: number;
}

/** The store; memory changes only after the line is on disk; a failed write rejects and changes nothing. */
export class AnswerLog {
  private readonly lock = new Mutex();
  private lines: number;

  private constructor(
    private readonly file: string,
    private readonly entries: Map<string, AnswerEntry>,
    lines: number,
    private readonly bounds: AnswerLogBounds,
    private readonly now: () => number,
    private readonly logger: Logger,
  ) {
    this.lines = lines;
  }

  /** Opens (or starts) DIR/answers.log and replays it. */
  static async open(dir: string, bounds: AnswerLogBounds, now: () => number, logger: Logger): Promise<AnswerLog> {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'answers.log');
    const text = await fs.readFile(file, 'utf8').catch(() => '');
    const entries = new Map<string, AnswerEntry>();
    let lines = 0;
    for (const line of text.split('\n')) {
      if (!line) continue;
      lines += 1;
      try {
        const entry = JSON.parse(line) as AnswerEntry;
        entries.delete(entry.key);
        entries.set(entry.key, entry);
      } catch {
        logger.warn('fleet answers: an unreadable line skipped (a torn write)', { file });
      }
    }
    return new AnswerLog(file, entries, lines, bounds, now, logger);
  }

  /** The live entry of `key`, or undefined (never stored, or expired). */
  get(key: string): AnswerEntry | undefined {
    const entry = this.entries.get(key);
    if (entry?.state === 'answered' && this.expired(entry)) return undefined;
    return entry;
  }

  /** Keys accepted and not yet answered (after a restart: answered when their jobs end). */
  accepted(): AcceptedEntry[] {
    return [...this.entries.values()].filter((e): e is AcceptedEntry => e.state === 'accepted');
  }

  /** Stores `entry` (replacing what `key` had); resolves once it is on disk, then it is current. */
  put(entry: AnswerEntry): Promise<void> {
    return this.lock.run(async () => {
      await this.append(`${JSON.stringify(entry)}\n`);
      this.entries.delete(entry.key);
      this.entries.set(entry.key, entry);
      this.evict();
      if (this.lines > 1000 && this.lines > 2 * this.entries.size) await this.compact();
    });
  }

  private expired(entry: AnswerEntry): boolean {
    return this.now() - entry.at >= this.bounds.retentionMs();
  }

  private evict(): void {
    let answered = 0;
    for (const entry of this.entries.values()) if (entry.state === 'answered') answered += 1;
    for (const [key, entry] of this.entries) {
      if (entry.state !== 'answered') continue;
      if (answered <= this.bounds.maxEntries && !this.expired(entry)) break;
      this.entries.delete(key);
      answered -= 1;
    }
  }

  private async append(line: string): Promise<void> {
    const handle = await fs.open(this.file, 'a', 0o600);
    try {
      await handle.appendFile(line);
      await handle.datasync();
      this.lines += 1;
    } finally {
      await handle.close();
    }
  }

  /** Rewrites the journal with only the live entries; a failure leaves it as it was (logged). */
  private async compact(): Promise<void> {
    const text = [...this.entries.values()].map((e) => `${JSON.stringify(e)}\n`).join('');
    try {
      await writeFileAtomic(this.file, text, { backup: false });
      this.lines = this.entries.size;
    } catch (err) {
      this.logger.warn('fleet answers: compaction failed; the journal grows until the next one', { reason: (err as Error).message });
    }
  }
}
