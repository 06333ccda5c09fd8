// Job routes: GET /jobs, GET /jobs/{jobId} (live for IPP jobs), DELETE /jobs/{jobId} (cancel) (seed 4.7, decisions.md).
import { Type } from '@sinclair/typebox';
import { AppError } from '../../errors';
import { JobRecordSchema, type JobRecord } from '../../schemas/job';
import type { JobStore } from '../../spooler/job-store';
import type { Spooler } from '../../spooler/spooler';
import type { Route } from '../route';

/** The job routes. */
export function jobRoutes(spooler: Spooler, store: JobStore): Route[] {
  const notFound = (jobId: string): never => {
    throw new AppError('JOB_NOT_FOUND', `No job with id: ${jobId} (unknown, or older than 1 hour)`);
  };
  return [
    {
      method: 'get', path: '/jobs', tag: 'jobs', summary: 'Retained jobs, newest first',
      response: Type.Array(JobRecordSchema),
      handler: () => ({ message: 'Jobs retrieved.', content: store.list() }),
    },
    {
      method: 'get', path: '/jobs/{jobId}', tag: 'jobs', summary: 'One job record, live',
      response: JobRecordSchema, responses: { 404: 'Job not found' },
      handler: async (req) => {
        const job: JobRecord = (await spooler.get(req.params.jobId)) ?? notFound(req.params.jobId);
        return { message: 'Job retrieved.', content: job };
      },
    },
    {
      method: 'delete', path: '/jobs/{jobId}', tag: 'jobs', summary: 'Cancel a queued or printing job',
      response: JobRecordSchema, responses: { 404: 'Job not found' },
      handler: (req) => {
        const job = spooler.cancel(req.params.jobId) ?? notFound(req.params.jobId);
        return { message: job.error === 'Canceled' ? 'Job canceled.' : 'Job already finished.', content: job };
      },
    },
  ];
}
