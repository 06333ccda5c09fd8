// Follows a label printer's buffer after its jobs were accepted, and says which jobs' labels have left the printer.

/** What the tracker needs: a probe of the formats not yet printed (null when the printer cannot tell), and the clock. */
export interface PrintedTrackerDeps<T> {
  /** Formats the printer still holds (through the device lock); null when it did not answer or cannot tell. */
  unprinted: () => Promise<number | null>;
  /** Called once per job whose labels are out. */
  onPrinted: (job: T) => void;
  /** Time between two probes while jobs are followed, ms. */
  pollMs: number;
  /** Longest a job is followed before it is given up (printedAt stays null), ms. */
  maxFollowMs: number;
  /** Probes in a row without an answer before every followed job is given up. */
  maxSilentProbes: number;
  now: () => number;
}

interface Followed<T> {
  job: T;
  formats: number;
  since: number;
}

/**
 * Jobs are followed in the order the printer accepted them. A probe that says `n` formats are unprinted means every
 * job accepted before the newest `n` formats has printed: a job is out once the formats accepted after it cover `n`.
 */
export class PrintedTracker<T> {
  private readonly followed: Array<Followed<T>> = [];
  private timer: NodeJS.Timeout | null = null;
  private probing = false;
  private silent = 0;
  private stopped = false;

  constructor(private readonly deps: PrintedTrackerDeps<T>) {}

  /** Follows a job whose bytes (holding `formats` label formats) the printer has just accepted. */
  follow(job: T, formats: number): void {
    if (this.stopped || formats <= 0) return;
    this.followed.push({ job, formats, since: this.deps.now() });
    this.schedule();
  }

  /** Jobs followed now. */
  get following(): number {
    return this.followed.length;
  }

  /** Stops following; nothing more is claimed. */
  stop(): void {
    this.stopped = true;
    this.followed.length = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer || this.probing || this.stopped || this.followed.length === 0) return;
    this.timer = setTimeout(() => void this.probe(), this.deps.pollMs);
    this.timer.unref();
  }

  private async probe(): Promise<void> {
    this.timer = null;
    this.probing = true;
    // only jobs accepted before the probe started are judged by its answer
    const judged = this.followed.length;
    const unprinted = await this.deps.unprinted().catch(() => null);
    this.probing = false;
    if (this.stopped) return;
    if (unprinted === null) this.silence();
    else this.settle(judged, unprinted);
    this.expire();
    this.schedule();
  }

  private settle(judged: number, unprinted: number): void {
    this.silent = 0;
    // `later`: formats of the judged jobs accepted after job i; once they cover what is unprinted, job i and all before it are out
    let later = 0;
    let printed = 0;
    for (let i = judged - 1; i >= 0; i -= 1) {
      if (later >= unprinted) {
        printed = i + 1;
        break;
      }
      later += this.followed[i].formats;
    }
    for (const { job } of this.followed.splice(0, printed)) this.deps.onPrinted(job);
  }

  private silence(): void {
    this.silent += 1;
    if (this.silent >= this.deps.maxSilentProbes) {
      this.silent = 0;
      this.followed.length = 0;
    }
  }

  private expire(): void {
    const oldest = this.deps.now() - this.deps.maxFollowMs;
    while (this.followed.length > 0 && this.followed[0].since < oldest) this.followed.shift();
  }
}
