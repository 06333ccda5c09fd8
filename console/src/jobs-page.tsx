// Jobs: the live table, newest first, with errors, printedAt when known, and Cancel on active jobs.
import { useLive, useSession } from './session';
import type { JobRecord as Job } from '../../src/schemas/job';
import { ErrorText, useAction } from './ui';
import { timeText } from './words';

/** The Jobs page. */
export function JobsPage() {
  const live = useLive();
  const cancel = useAction();
  return (
    <section>
      <h1>Jobs</h1>
      <p class="sub">Jobs of the last hour, newest first. The device keeps each job for an hour.</p>
      <ErrorText error={cancel.error ?? live.error} />
      <div class="table-wrap">
        <table class="jobs">
          <caption class="sr-only">Jobs, updated live</caption>
          <thead>
            <tr><th scope="col">Job</th><th scope="col">Printer</th><th scope="col">State</th><th scope="col">Created</th></tr>
          </thead>
          <tbody>
            {!live.jobs && <tr><td colSpan={4}>Loading…</td></tr>}
            {live.jobs?.length === 0 && <tr><td colSpan={4}>No jobs in the last hour.</td></tr>}
            {live.jobs?.map((job) => <JobRow key={job.jobId} job={job} cancel={cancel.run} busy={cancel.busy} />)}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function JobRow({ job, cancel, busy }: { job: Job; cancel: (action: () => Promise<void>) => Promise<void>; busy: boolean }) {
  const { api, live } = useSession();
  const active = job.state === 'queued' || job.state === 'printing';
  const doCancel = () => cancel(async () => {
    live.upsertJob(await api.send<Job>('DELETE', `/jobs/${encodeURIComponent(job.jobId)}`));
  });
  return (
    <tr data-job={job.jobId}>
      <td data-label="Job">{job.jobId}<div class="sub line">{job.title}</div></td>
      <td data-label="Printer">{job.printer}</td>
      <td data-label="State">
        <span class={`state ${job.state}`}>{job.state}</span>
        {job.error && <div class="sub error-text">{job.error}</div>}
        {job.printedAt && <div class="sub">Printed {timeText(job.printedAt)}</div>}
        {active && <div><button type="button" class="small" onClick={() => void doCancel()} disabled={busy} aria-label={`Cancel job ${job.jobId}`}>Cancel</button></div>}
      </td>
      <td data-label="Created">{timeText(job.createdAt)}</td>
    </tr>
  );
}
