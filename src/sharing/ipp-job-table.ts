// IPP job ids of shared printers ↔ spooler jobs, and jobs created (Create-Job) whose document has not come yet.
import type { DeclaredFormat } from '../filters/document-format';
import type { PrintOptions } from '../schemas/print-options';

/** A job as IPP clients know it. */
export interface IppJob {
  /** job-id: a positive integer, unique in this run of the daemon. */
  id: number;
  printerPath: string;
  user: string;
  name: string;
  createdAt: Date;
  /** The spooler job once its document was accepted (GET /jobs id). */
  jobId: string | null;
  /** Create-Job only, before the document: waiting for it, or ended without one. */
  local: 'incoming' | 'canceled' | 'aborted' | null;
  /** Why a job ended without reaching the spooler. */
  message: string | null;
  /** Job template values from Create-Job, applied when the document comes. */
  options: PrintOptions;
  /** A document sent with last-document false, submitted at Close-Job; `release` gives its bytes back to the memory budget. */
  pending: { data: Buffer; format: DeclaredFormat; mime: string; release: () => void } | null;
  /** Aborts an incoming job whose document does not come within multiple-operation-time-out. */
  timer: NodeJS.Timeout | null;
}

/** Jobs kept per table: the oldest are forgotten first (their spooler records live on in GET /jobs for their hour). */
const MAX_JOBS = 1000;

/** The IPP jobs of every shared printer. */
export class IppJobTable {
  private next = 1;
  private readonly jobs = new Map<number, IppJob>();

  /** A new job with the next job-id. */
  create(printerPath: string, user: string, name: string, options: PrintOptions, now: Date): IppJob {
    const job: IppJob = { id: this.next++, printerPath, user, name, createdAt: now, jobId: null, local: null, message: null, options, pending: null, timer: null };
    this.jobs.set(job.id, job);
    for (const [id, old] of this.jobs) {
      if (this.jobs.size <= MAX_JOBS) break;
      if (old.timer) clearTimeout(old.timer);
      old.pending?.release();
      this.jobs.delete(id);
    }
    return job;
  }

  /** The job `id` of the printer at `printerPath`, or undefined. */
  get(printerPath: string, id: number): IppJob | undefined {
    const job = this.jobs.get(id);
    return job?.printerPath === printerPath ? job : undefined;
  }

  /** The jobs of the printer at `printerPath`, newest first. */
  of(printerPath: string): IppJob[] {
    return [...this.jobs.values()].filter((j) => j.printerPath === printerPath).reverse();
  }

  /** Stops every timer and drops the documents still waiting for Close-Job (daemon shutdown). */
  close(): void {
    for (const job of this.jobs.values()) {
      if (job.timer) clearTimeout(job.timer);
      job.pending?.release();
      job.pending = null;
    }
  }
}
