// Answers of job requests that asked to wait (fleet.md): sent when every job of the request has ended, stored first,
// and resumed after a device restart for keys accepted and not yet answered.
import { AppError } from '../errors';
import type { DeviceEvent } from '../events/event-bus';
import type { Logger } from '../log';
import { envelope } from '../http/envelope';
import type { CallAnswer } from '../http/api-dispatch';
import { printReply } from '../http/routes/print';
import { isFinished, type JobRecord } from '../schemas/job';
import type { AcceptedEntry, AnswerLog, ReplyRoute } from './answer-log';

/** Collaborators of the job answers. */
export interface JobAnswersDeps {
  answers: AnswerLog;
  /** The current record of a job (the spooler's), or undefined when it is gone. */
  job: (jobId: string) => Promise<JobRecord | undefined>;
  send: (route: ReplyRoute, answer: CallAnswer) => void;
  /** The error answer of `err` for `module`, as HTTP gives it. */
  failure: (module: string, err: unknown) => CallAnswer;
  now: () => number;
  logger: Logger;
}

/** Watches accepted keys' jobs and answers each key once, when its jobs have all ended. */
export class JobAnswers {
  private readonly keyOfJob = new Map<string, string>();
  /** Requests (redeliveries, retries) that arrived for a key still waiting: answered with it, not stored. */
  private readonly extra = new Map<string, ReplyRoute[]>();
  private readonly checking = new Set<string>();

  constructor(private readonly deps: JobAnswersDeps) {}

  /** Watches every key accepted and not answered (after a start). */
  resume(): void {
    for (const entry of this.deps.answers.accepted()) this.watch(entry.key);
  }

  /** Watches the jobs of accepted `key`; answers at once when they have already ended. */
  watch(key: string): void {
    const entry = this.deps.answers.get(key);
    if (entry?.state !== 'accepted') return;
    for (const jobId of entry.jobIds) this.keyOfJob.set(jobId, key);
    void this.check(key);
  }

  /** Adds `route` to the answers of accepted `key`. */
  alsoAnswer(key: string, route: ReplyRoute): void {
    const routes = this.extra.get(key) ?? [];
    if (routes.length < 16) routes.push(route);
    this.extra.set(key, routes);
  }

  /** Bus listener: a job that ended may complete a key. */
  onEvent(event: DeviceEvent): void {
    if (event.type !== 'job.state') return;
    const job = event.data as JobRecord;
    const key = this.keyOfJob.get(job.jobId);
    if (key && isFinished(job.state)) void this.check(key);
  }

  /** Forgets the keys being watched (the bridge stopped). */
  clear(): void {
    this.keyOfJob.clear();
    this.extra.clear();
  }

  private async check(key: string): Promise<void> {
    if (this.checking.has(key)) return;
    this.checking.add(key);
    try {
      const entry = this.deps.answers.get(key);
      if (entry?.state !== 'accepted') return;
      const answer = await this.finalAnswer(entry);
      if (!answer) return;
      await this.deps.answers.put({ state: 'answered', key, at: this.deps.now(), status: answer.status, body: answer.body });
      for (const jobId of entry.jobIds) this.keyOfJob.delete(jobId);
      const routes = [entry.reply, ...(this.extra.get(key) ?? [])];
      this.extra.delete(key);
      for (const route of routes) this.deps.send(route, answer);
    } catch (err) {
      this.deps.logger.warn('fleet: the answer of a job request could not be stored', { key, reason: (err as Error).message });
    } finally {
      this.checking.delete(key);
    }
  }

  /** The wait: true answer of ended jobs, as POST /print gives it; null while one still runs. */
  private async finalAnswer(entry: AcceptedEntry): Promise<CallAnswer | null> {
    const jobs = await Promise.all(entry.jobIds.map((id) => this.deps.job(id)));
    if (jobs.some((job) => job === undefined)) {
      return this.deps.failure(entry.module, new AppError('JOB_NOT_FOUND', 'the job of this request is no longer known to the device'));
    }
    const records = jobs as JobRecord[];
    if (records.some((job) => !isFinished(job.state))) return null;
    try {
      const reply = printReply({ jobs: records, replay: false, notReady: new Map() }, true);
      const status = reply.status ?? 200;
      const content = entry.module.endsWith('/test') ? null : 'content' in reply ? reply.content : null;
      return { status, body: envelope(status, entry.module, reply.message, content) };
    } catch (err) {
      return this.deps.failure(entry.module, err);
    }
  }
}
