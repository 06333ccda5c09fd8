// Runs one request received on P/req (fleet.md "Requests and answers") through the API's own routes, and answers it:
// size and shape checks, routes refused over MQTT, and exactly-once for requests that create jobs.
import type { IPublishPacket } from 'mqtt';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AppError } from '../errors';
import type { Logger } from '../log';
import type { ApiDispatcher, CallAnswer, ResolvedCall } from '../http/api-dispatch';
import type { Route } from '../http/route';
import { FleetRequestSchema, type FleetRequest, type FleetSettings } from '../schemas/fleet';
import type { AnswerEntry, AnswerLog, ReplyRoute } from './answer-log';
import type { FleetTopics } from './fleet-topics';
import type { JobAnswers } from './job-answers';

const checkRequest = TypeCompiler.Compile(FleetRequestSchema);

/** Collaborators of the runner. */
export interface RequestRunnerDeps {
  dispatcher: ApiDispatcher;
  answers: AnswerLog;
  jobAnswers: JobAnswers;
  settings: () => FleetSettings;
  topics: () => FleetTopics;
  /** The HTTP body limit (settings `maxBodyBytes`), which applies here too. */
  maxBodyBytes: () => number;
  /** Publishes an answer to `route` (size-checked by the sender). */
  send: (route: ReplyRoute, answer: CallAnswer) => void;
  logger: Logger;
  now: () => number;
}

/** True for the routes that create jobs (the route table flags them `deduplicated`): spooled, de-duplicated, answered once. */
export function createsJobs(route: Route): boolean {
  return route.fleet !== undefined && 'deduplicated' in route.fleet;
}

/** Why the route table refuses `route` over MQTT for a request with this JSON `body`, or null when it is reachable. */
export function fleetRefusal(route: Route, body: unknown): string | null {
  if (!route.fleet) return null;
  if ('refused' in route.fleet) return route.fleet.refused;
  if ('refusedIf' in route.fleet) return route.fleet.refusedIf(body);
  return null;
}

/** Handles P/req messages one at a time (MQTT.js calls handleMessage in order); `done` is the PUBACK. */
export class RequestRunner {
  constructor(private readonly deps: RequestRunnerDeps) {}

  /** Runs `packet`; calls `done` once the request is answered or, for a job, once its job and key are on disk. */
  handle(packet: IPublishPacket, done: (err?: Error) => void): void {
    this.run(packet).then(
      () => done(),
      (err: unknown) => {
        this.deps.logger.error('fleet: request failed', { error: err instanceof Error ? err.stack : String(err) });
        done();
      },
    );
  }

  private async run(packet: IPublishPacket): Promise<void> {
    const payload = Buffer.isBuffer(packet.payload) ? packet.payload : Buffer.from(packet.payload);
    const parsed = parseJson(payload);
    const request = parsed !== undefined && checkRequest.Check(parsed) ? parsed : null;
    const route = this.replyRoute(packet, idOf(parsed));
    const limit = this.deps.settings().inlineMaxBytes;
    if (payload.length > limit) return this.refuse(route, new AppError('PAYLOAD_TOO_LARGE', `the request is ${payload.length} bytes; at most ${limit} (inlineMaxBytes) are taken inline: send large documents as pdf_url`));
    if (!request) return this.refuse(route, new AppError('INVALID_REQUEST', invalidReason(parsed)));
    let call: ResolvedCall;
    try {
      call = this.deps.dispatcher.resolve(request.method, request.path);
      this.checkReachable(call, request);
    } catch (err) {
      return this.refuse(route, err);
    }
    if (createsJobs(call.route)) return this.runJob(call, request, route);
    this.deps.send(route, await this.execute(call, call.route.fleetKey ? keyedById(request) : request, request.body));
  }

  private checkReachable(call: ResolvedCall, request: FleetRequest): void {
    if (call.route.binaryResponse) throw new AppError('NOT_FOUND', `${call.module} does not answer JSON; it is not reachable over MQTT`);
    const refusal = fleetRefusal(call.route, request.body);
    if (refusal !== null) throw new AppError('FORBIDDEN', `${request.method.toUpperCase()} ${call.module} is refused over MQTT: ${refusal}`);
    const size = request.body === undefined ? 0 : Buffer.byteLength(JSON.stringify(request.body));
    if (size > this.deps.maxBodyBytes()) throw new AppError('PAYLOAD_TOO_LARGE', `the body is ${size} bytes; at most ${this.deps.maxBodyBytes()} (maxBodyBytes)`);
  }

  /** A job request: a stored answer is replayed, one in progress waits for its jobs, a new one is spooled first. */
  private async runJob(call: ResolvedCall, request: FleetRequest, route: ReplyRoute): Promise<void> {
    const key = idempotencyKey(request);
    const known = this.deps.answers.get(key);
    if (known?.state === 'answered') return this.deps.send(route, { status: known.status, body: known.body });
    if (known?.state === 'accepted') return this.deps.jobAnswers.alsoAnswer(key, route);
    const { spooled, wait } = spooledCall(call, request);
    // the key goes with the job into the spool: a redelivery after a crash before the key reached the answer log
    // gets the spooled job back from the job store instead of a second print
    const keyed = { ...request, headers: { 'idempotency-key': `fleet-${key}`, ...request.headers } };
    const answer = await this.execute(spooled, keyed, spooled === call ? { ...(request.body as object), wait: false } : request.body);
    const jobIds = jobIdsOf(answer.body);
    if (answer.status === 201 && wait && jobIds.length > 0) {
      // answered when its jobs end; a key that could not be stored is answered now, as if wait: false
      if (await this.storeKey(key, { state: 'accepted', key, at: this.deps.now(), module: call.module, jobIds, reply: route })) return this.deps.jobAnswers.watch(key);
      return this.deps.send(route, answer);
    }
    // wait: false asked, a refusal, or a job that ended at once: this is the answer, sent at once (its jobs are on
    // disk) and stored, when jobs were made, before the PUBACK: a redelivery then replays it instead of printing again
    this.deps.send(route, answer);
    if (jobIds.length > 0) await this.storeKey(key, { state: 'answered', key, at: this.deps.now(), status: answer.status, body: answer.body });
  }

  /** Stores a job request's key and what is known of its answer; false (logged) when the disk refused it. */
  private async storeKey(key: string, entry: AnswerEntry): Promise<boolean> {
    try {
      await this.deps.answers.put(entry);
      return true;
    } catch (err) {
      this.deps.logger.warn('fleet: the key of a job request could not be stored; a redelivery may print it again', { key, reason: (err as Error).message });
      return false;
    }
  }

  private execute(call: ResolvedCall, request: FleetRequest, body: unknown): Promise<CallAnswer> {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
    // the channel is authenticated by the broker: no API key here
    return this.deps.dispatcher.execute(call, { headers, body, remoteAddress: 'mqtt', signal: new AbortController().signal });
  }

  private refuse(route: ReplyRoute, err: unknown): void {
    this.deps.send(route, this.deps.dispatcher.failure('', err));
  }

  private replyRoute(packet: IPublishPacket, id: string | number | null): ReplyRoute {
    const topics = this.deps.topics();
    const asked = packet.properties?.responseTopic;
    const correlation = packet.properties?.correlationData;
    return {
      id,
      topic: asked && topics.inside(asked) ? asked : topics.res,
      correlation: correlation ? Buffer.from(correlation).toString('base64') : null,
    };
  }
}

/**
 * The call that spools: a JSON print with `wait: false` (the body is changed by the caller), a test print with
 * `?wait=false`; `wait` is what the request asked for (default true).
 */
function spooledCall(call: ResolvedCall, request: FleetRequest): { spooled: ResolvedCall; wait: boolean } {
  if (call.route.path === '/print/{target}') {
    const body = request.body as { wait?: unknown } | undefined;
    return { spooled: call, wait: body?.wait !== false };
  }
  const query = new URLSearchParams(call.query);
  const wait = query.get('wait') !== 'false';
  query.set('wait', 'false');
  return { spooled: { ...call, query }, wait };
}

/** `request` with `Idempotency-Key: fleet-id:<id>` when it carries none (a route's `fleetKey`). */
function keyedById(request: FleetRequest): FleetRequest {
  const has = Object.keys(request.headers ?? {}).some((name) => name.toLowerCase() === 'idempotency-key');
  return has ? request : { ...request, headers: { ...request.headers, 'idempotency-key': `fleet-id:${String(request.id)}` } };
}

/** The request's key: its Idempotency-Key header, else the body's idempotencyKey, else its id. */
function idempotencyKey(request: FleetRequest): string {
  const header = Object.entries(request.headers ?? {}).find(([name]) => name.toLowerCase() === 'idempotency-key')?.[1];
  const bodyKey = (request.body as { idempotencyKey?: unknown } | undefined)?.idempotencyKey;
  if (header) return `key:${header}`;
  if (typeof bodyKey === 'string' && bodyKey) return `key:${bodyKey}`;
  return `id:${String(request.id)}`;
}

/** The job ids an answer's content names (`jobId`, and `jobs[].jobId` on fan-out). */
export function jobIdsOf(body: unknown): string[] {
  const content = (body as { result?: { content?: { jobId?: unknown; jobs?: Array<{ jobId?: unknown }> } } } | undefined)?.result?.content;
  if (!content || typeof content !== 'object') return [];
  if (Array.isArray(content.jobs)) return content.jobs.map((j) => j.jobId).filter((id): id is string => typeof id === 'string');
  return typeof content.jobId === 'string' ? [content.jobId] : [];
}

function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}

function idOf(parsed: unknown): string | number | null {
  const id = (parsed as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function invalidReason(parsed: unknown): string {
  if (parsed === undefined) return 'the request is not JSON';
  if (idOf(parsed) === null) return 'the request has no id';
  const first = checkRequest.Errors(parsed).First();
  return first ? `${first.path.slice(1) || 'request'}: ${first.message}` : 'the request is not valid';
}
