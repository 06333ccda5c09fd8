// The answer of POST /print from a spooler outcome: one code for one failure, whether a job or a request carries it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../../src/errors';
import { httpErrorOf } from '../../../src/http/error-status';
import { printReply } from '../../../src/http/routes/print';
import type { JobRecord } from '../../../src/schemas/job';
import type { Readiness } from '../../../src/schemas/readiness';
import type { SubmitOutcome } from '../../../src/spooler/spooler';

const notReadyJob: JobRecord = {
  jobId: 'pj_000000000001', printer: 'zebra', target: 'zebra', title: 't', source: null, state: 'failed',
  error: 'Printer is not ready: paper out', errorCode: 'NOT_READY', createdAt: new Date(0).toISOString(),
  completedAt: new Date(1).toISOString(), contentType: 'zpl', size: 3, cupsJobId: '1', printedAt: null,
};

test('a request whose every job failed pre-flight is refused with the code its job carries (NOT_READY), a 503', () => {
  const readiness: Readiness = { ready: false, paperOut: true, paused: false, headOpen: false, ribbonOut: false, errors: ['paper out'] };
  const outcome: SubmitOutcome = { jobs: [notReadyJob], replay: false, notReady: new Map([[notReadyJob.jobId, readiness]]) };
  assert.throws(
    () => printReply(outcome, true),
    (err: unknown) => err instanceof AppError && err.code === notReadyJob.errorCode && err.content === readiness && httpErrorOf(err).status === 503,
  );
});
