// Job attributes of an IPP job (RFC 8011 5.3), from its spooler record or its Create-Job state.
import type { IppAttribute } from '../ipp/ipp-wire';
import { TAG } from '../ipp/ipp-wire';
import type { JobRecord } from '../schemas/job';
import { JOB_STATE } from '../ipp/ipp-constants';
import type { IppJob } from './ipp-job-table';
import { dateTime, enumeration, integer, keyword, nameValue, outOfBand, text, uri } from './ipp-values';

/** What job attributes are built from. */
export interface JobFacts {
  job: IppJob;
  /** The spooler record, when the job reached the spooler and its record is retained. */
  record: JobRecord | undefined;
  printerUri: string;
  /** The printer holds its queue until it is ready (pre-flight): queued jobs are pending, `printer-stopped`. */
  printerHeld: boolean;
  startedAt: Date;
  now: Date;
}

/** job-state, job-state-reasons and job-state-message of a job. */
export function jobState(f: Pick<JobFacts, 'job' | 'record' | 'printerHeld'>): { state: number; reasons: string[]; message: string } {
  const { job, record } = f;
  if (job.local === 'incoming') return { state: JOB_STATE.pending, reasons: ['job-incoming'], message: 'Waiting for the document.' };
  if (job.local === 'canceled') return { state: JOB_STATE.canceled, reasons: ['job-canceled-by-user'], message: 'Canceled.' };
  if (job.local === 'aborted' || !record) return { state: JOB_STATE.aborted, reasons: ['aborted-by-system'], message: job.message ?? 'The job record has expired.' };
  switch (record.state) {
    case 'queued':
      return f.printerHeld ? { state: JOB_STATE.pending, reasons: ['printer-stopped'], message: 'Held until the printer is ready.' } : { state: JOB_STATE.pending, reasons: ['job-queued'], message: 'Queued.' };
    case 'printing':
      return { state: JOB_STATE.processing, reasons: ['job-printing'], message: 'Printing.' };
    case 'completed':
      return { state: JOB_STATE.completed, reasons: ['job-completed-successfully'], message: 'Completed.' };
    case 'failed':
      return record.errorCode === 'CANCELED'
        ? { state: JOB_STATE.canceled, reasons: ['job-canceled-by-user'], message: 'Canceled.' }
        : { state: JOB_STATE.aborted, reasons: ['aborted-by-system'], message: (record.error ?? 'Failed.').slice(0, 255) };
  }
}

/** The job-uri of job `id` below a printer URI. */
export function jobUri(printerUri: string, id: number): string {
  return `${printerUri}/${id}`;
}

/** Every job attribute of a job. */
export function jobAttributes(f: JobFacts): IppAttribute[] {
  const { job, record } = f;
  const { state, reasons, message } = jobState(f);
  const since = (d: Date) => Math.max(0, Math.floor((d.getTime() - f.startedAt.getTime()) / 1000));
  const ended = record?.completedAt ? new Date(record.completedAt) : null;
  const atTime = (name: string, d: Date | null) => (d ? integer(name, since(d)) : outOfBand(name, TAG.noValue));
  const atDate = (name: string, d: Date | null) => (d ? dateTime(name, d) : outOfBand(name, TAG.noValue));
  // the spooler keeps no start time: a job that is printing or ended counts as processing from its end, or now
  const processing = state >= JOB_STATE.processing ? (ended ?? f.now) : null;
  return [
    integer('job-id', job.id),
    uri('job-uri', jobUri(f.printerUri, job.id)),
    uri('job-printer-uri', f.printerUri),
    nameValue('job-name', job.name),
    nameValue('job-originating-user-name', job.user),
    enumeration('job-state', state),
    keyword('job-state-reasons', ...reasons),
    text('job-state-message', message),
    integer('time-at-creation', since(job.createdAt)),
    atTime('time-at-processing', processing),
    atTime('time-at-completed', ended),
    integer('job-printer-up-time', Math.max(1, since(f.now))),
    dateTime('date-time-at-creation', job.createdAt),
    atDate('date-time-at-processing', processing),
    atDate('date-time-at-completed', ended),
    integer('number-of-documents', job.jobId || job.pending ? 1 : 0),
    integer('job-k-octets', Math.ceil((record?.size ?? job.pending?.data.length ?? 0) / 1024)),
    integer('copies', job.options.copies ?? 1),
  ];
}
