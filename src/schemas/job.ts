// Job records (seed 2.3): the full record, its summary form, and the states a job moves through.
import { Type, type Static } from '@sinclair/typebox';
import { DEVICE_ERROR_CODES } from '../errors';

/** Job states (seed 2.3). */
export const JobStateSchema = Type.Union([Type.Literal('queued'), Type.Literal('printing'), Type.Literal('completed'), Type.Literal('failed')], {
  description:
    '`completed` means every byte was accepted by the printer\'s connection (TCP or USB), or the IPP printer reports the job completed; it does not mean a label printer has printed it (see events.md `job.printed`).',
});
/** A job state. */
export type JobState = Static<typeof JobStateSchema>;

/** The stable code of a failed job: one of the catalogue's device codes (src/errors.ts). */
export const JobErrorCodeSchema = Type.Union(DEVICE_ERROR_CODES.map((code) => Type.Literal(code)));

/** The summary returned by POST /print and in 503 bodies (seed 2.3, fields marked S). */
export const JobSummarySchema = Type.Object({
  jobId: Type.String(),
  printer: Type.String(),
  target: Type.String(),
  title: Type.String(),
  source: Type.Union([Type.String(), Type.Null()]),
  state: JobStateSchema,
  error: Type.Union([Type.String(), Type.Null()]),
  errorCode: Type.Union([JobErrorCodeSchema, Type.Null()], { description: 'Stable code of the failure (for example CONNECT_REFUSED, NOT_READY, CANCELED, RENDER_FAILED); null unless failed.' }),
  createdAt: Type.String({ format: 'date-time' }),
  completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'When the job ended: for `completed`, when the printer\'s connection had accepted every byte (not when paper came out); null while unfinished.' }),
});
/** A job summary. */
export type JobSummary = Static<typeof JobSummarySchema>;

/** The full record of GET /jobs/{jobId}. */
export const JobRecordSchema = Type.Composite([
  JobSummarySchema,
  Type.Object({
    contentType: Type.String(),
    size: Type.Integer(),
    cupsJobId: Type.Union([Type.String(), Type.Null()]),
    printedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'When a label printer confirmed that the job\'s labels left it (its `~HS` buffer and batch drained after the job was accepted; events.md `job.printed`). Null while unknown, and always null on a printer that cannot tell (USB, raw, receipt and IPP printers, or a label printer that does not answer its status query): nothing is claimed.',
    }),
  }),
]);
/** A full job record. */
export type JobRecord = Static<typeof JobRecordSchema>;

/** The summary fields of a record. */
export function jobSummary(job: JobRecord): JobSummary {
  return {
    jobId: job.jobId,
    printer: job.printer,
    target: job.target,
    title: job.title,
    source: job.source,
    state: job.state,
    error: job.error,
    errorCode: job.errorCode,
    createdAt: job.createdAt,
    completedAt: job.completedAt,
  };
}

/** True for `completed` and `failed`. */
export function isFinished(state: JobState): boolean {
  return state === 'completed' || state === 'failed';
}

/** Live state of a job the printer itself tracks (IPP). */
export interface PrinterJobState {
  state: 'queued' | 'printing' | 'completed' | 'failed';
  error: string | null;
}
