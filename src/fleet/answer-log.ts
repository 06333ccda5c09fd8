// The fleet's de-duplication store (fleet.md "Exactly once"): for each idempotency key, the jobs it created and, once
// known, the answer; a Journal in DATA/fleet/answers.log (group-committed, compacted atomically), bounded.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../log';
import { Journal } from '../journal/journal';

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

/** The journal is compacted once it is larger than this and twice its live entries. */
const COMPACT_ABOVE_BYTES = 256 * 1024;

/** The store; memory changes only after the line is on disk; a failed write rejects and changes nothing. */
export class AnswerLog {
  /** Each live entry with the bytes of its line (newline included). */
  private readonly entries = new Map<string, { entry: AnswerEntry; bytes: number }>();
  private liveBytes = 0;
  private journal!: Journal;

  private constructor(
    private readonly bounds: AnswerLogBounds,
    private readonly now: () => number,
  ) {}

  /** Opens (or starts) DIR/answers.log and replays it. */
  static async open(dir: string, bounds: AnswerLogBounds, now: () => number, logger: Logger): Promise<AnswerLog> {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'answers.log');
    const log = new AnswerLog(bounds, now);
    log.journal = await Journal.open(file, logger, {
      aboveBytes: COMPACT_ABOVE_BYTES,
      liveBytes: () => log.liveBytes,
      live: () => [{ text: [...log.entries.values()].map(({ entry }) => `${JSON.stringify(entry)}\n`).join('') }],
      moved: () => undefined,
    });
    for await (const { text } of log.journal.replay()) {
      try {
        log.set(JSON.parse(text) as AnswerEntry, text.length + 1);
      } catch {
        logger.warn('fleet answers: an unreadable line skipped', { file });
      }
    }
    return log;
  }

  /** The live entry of `key`, or undefined (never stored, or expired). */
  get(key: string): AnswerEntry | undefined {
    const entry = this.entries.get(key)?.entry;
    if (entry?.state === 'answered' && this.expired(entry)) return undefined;
    return entry;
  }

  /** Keys accepted and not yet answered (after a restart: answered when their jobs end). */
  accepted(): AcceptedEntry[] {
    return [...this.entries.values()].map((e) => e.entry).filter((e): e is AcceptedEntry => e.state === 'accepted');
  }

  /** Stores `entry` (replacing what `key` had); resolves once it is on disk, then it is current. */
  async put(entry: AnswerEntry): Promise<void> {
    const line = JSON.stringify(entry);
    await this.journal.append(line, () => {
      this.set(entry, Buffer.byteLength(line) + 1);
      this.evict();
    });
  }

  private set(entry: AnswerEntry, bytes: number): void {
    this.forget(entry.key);
    this.entries.set(entry.key, { entry, bytes });
    this.liveBytes += bytes;
  }

  private forget(key: string): void {
    this.liveBytes -= this.entries.get(key)?.bytes ?? 0;
    this.entries.delete(key);
  }

  private expired(entry: AnswerEntry): boolean {
    return this.now() - entry.at >= this.bounds.retentionMs();
  }

  private evict(): void {
    let answered = 0;
    for (const { entry } of this.entries.values()) if (entry.state === 'answered') answered += 1;
    for (const [key, { entry }] of this.entries) {
      if (entry.state !== 'answered') continue;
      if (answered <= this.bounds.maxEntries && !this.expired(entry)) break;
      this.forget(key);
      answered -= 1;
    }
  }
}
