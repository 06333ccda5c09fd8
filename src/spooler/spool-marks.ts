// The disk spool's markers, one line each in one journal: a job taken up (its attempt count), its sending begun.
import { appendFileSync, readFileSync } from 'node:fs';
import { Journal } from '../journal/journal';
import type { Logger } from '../log';

/** What the markers say of one job: how often it was taken up, and whether its sending had begun. */
export interface JobMarks {
  attempts: number;
  sending: boolean;
}

/** Bytes past which the markers' journal is rewritten with the live jobs' lines only (when they are under half of it). */
const COMPACT_ABOVE_BYTES = 64 * 1024;
const NO_MARKS: JobMarks = { attempts: 0, sending: false };

/**
 * Markers guard against a crash loop and a resend after a process crash, which the page cache outlives: each is one
 * line appended to `marks.log` without an fsync (only the journal's creation and its compactions sync), where a file per
 * marker took four file operations. Lines of jobs that left the spool go at the next compaction; at start only spooled
 * jobs' lines count.
 */
export class SpoolMarks {
  private readonly marks = new Map<string, JobMarks>();
  private journal: Promise<Journal> | null = null;

  /** Markers in `file` of the jobs `live` says are spooled (a line written for another is not kept); the journal is opened at the first line written. */
  constructor(
    private readonly file: string,
    private readonly logger: Logger,
    private readonly live: (jobId: string) => boolean,
  ) {}

  /** Writes the markers a job had in the spool's older layout as lines (at start, before load, with no journal open). */
  adopt(jobId: string, marks: JobMarks): void {
    const lines = linesOf(jobId, marks);
    if (lines) appendFileSync(this.file, lines, { mode: 0o600 });
  }

  /** Reads the markers on disk (at start, before any is written) and keeps those of spooled jobs; torn or unknown lines are skipped. */
  load(): void {
    this.marks.clear();
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      return;
    }
    // a torn last line (a crash mid-append) has no newline yet: it never counts
    for (const line of text.slice(0, text.lastIndexOf('\n') + 1).split('\n')) {
      const [kind, jobId, count] = line.split(' ');
      if (!jobId || !this.live(jobId)) continue;
      if (kind === 'started') this.marks.set(jobId, { ...this.of(jobId), attempts: Number.parseInt(count, 10) || 0 });
      else if (kind === 'sending') this.marks.set(jobId, { ...this.of(jobId), sending: true });
    }
  }

  /** The markers of a job (none: 0 attempts, not sending). */
  of(jobId: string): JobMarks {
    return this.marks.get(jobId) ?? NO_MARKS;
  }

  /** Counts one more time the job was taken up; resolves once the line is written (rejects when it could not be). */
  async started(jobId: string): Promise<void> {
    const attempts = this.of(jobId).attempts + 1;
    await this.append(`started ${jobId} ${attempts}`, () => this.keep(jobId, { ...this.of(jobId), attempts }));
  }

  /** Records that the job's sending began; resolves once the line is written (rejects when it could not be). */
  async sending(jobId: string): Promise<void> {
    await this.append(`sending ${jobId}`, () => this.keep(jobId, { ...this.of(jobId), sending: true }));
  }

  /** Keeps a job's markers in memory, unless it left the spool (or never got into it) meanwhile. */
  private keep(jobId: string, marks: JobMarks): void {
    if (this.live(jobId)) this.marks.set(jobId, marks);
  }

  /** Forgets a job that left the spool: its lines are dropped at the next compaction. */
  forget(jobId: string): void {
    this.marks.delete(jobId);
  }

  /** Waits for the lines being written and closes the journal. */
  async close(): Promise<void> {
    const journal = await this.journal?.catch(() => null);
    await journal?.close();
    this.journal = null;
  }

  private async append(line: string, apply: () => void): Promise<void> {
    this.journal ??= Journal.open(this.file, this.logger, { aboveBytes: COMPACT_ABOVE_BYTES, liveBytes: () => Buffer.byteLength(this.liveText()), live: () => [{ text: this.liveText() }], moved: () => undefined }, 'process-crash');
    // a journal that could not be opened (a full or read-only partition) is tried again at the next marker
    const journal = await this.journal.catch((err: unknown) => {
      this.journal = null;
      throw err;
    });
    await journal.append(line, apply);
  }

  /** The lines the spooled jobs' markers need. */
  private liveText(): string {
    let text = '';
    for (const [jobId, marks] of this.marks) text += linesOf(jobId, marks);
    return text;
  }
}

/** A job's markers as lines. */
function linesOf(jobId: string, marks: JobMarks): string {
  return `${marks.attempts > 0 ? `started ${jobId} ${marks.attempts}\n` : ''}${marks.sending ? `sending ${jobId}\n` : ''}`;
}
