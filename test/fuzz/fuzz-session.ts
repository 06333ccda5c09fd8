// One fuzzing session against a real daemon: sends batches, judges answers, learns what the daemon made, counts everything.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../helpers/until';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { renderRequest, showBytes, type FuzzRequest, type RunState } from './fuzz-request';
import { judge, judgeEnvelope } from './judge';
import { sendRaw, type RawOutcome } from './raw-http';

/** Tallies printed at the end of a run. */
export interface Counts {
  requests: number;
  byClass: Record<string, number>;
  byStatus: Record<string, number>;
  documented5xx: number;
  undocumented5xx: number;
  hangs: number;
  closedProtocol: number;
  failures: number;
  /** Answers matching a finding already reported in findings.test.ts, by id. */
  knownFindings: Record<string, number>;
  statusChecks: number;
  statusRetries: number;
}

/** A failed check, with everything needed to replay it by hand. */
export interface Failure {
  reason: string;
  request: string;
  source: string;
  answer: string;
}

/** Limits of a session. */
export interface SessionOptions {
  /** A request with no answer and no close within this is a hang. */
  timeoutMs: number;
  /** GET /status must answer within this (the issue: 100 ms)... */
  statusBudgetMs: number;
  /** ...in one of this many fresh attempts (absorbs a GC pause or a scheduler hiccup on a shared machine). */
  statusAttempts: number;
}

/** A started daemon plus the state and counts of the fuzzing done against it. */
export class FuzzSession {
  readonly counts: Counts = { requests: 0, byClass: {}, byStatus: {}, documented5xx: 0, undocumented5xx: 0, hangs: 0, closedProtocol: 0, failures: 0, knownFindings: {}, statusChecks: 0, statusRetries: 0 };
  readonly failures: Failure[] = [];
  private readonly state: RunState;
  private stderr = '';
  private resyncProbes = 0;

  private constructor(private readonly daemon: DaemonHandle, private readonly options: SessionOptions) {
    this.state = { key: daemon.apiKey, printers: [], jobs: [], shares: [], tags: [] };
    daemon.proc.stderr?.on('data', (d: Buffer) => {
      if (this.stderr.length < 1_000_000) this.stderr += d.toString();
    });
  }

  /** Starts the daemon (port 0, no mDNS, a temp data dir) and returns a session on it. */
  static async start(options: SessionOptions): Promise<FuzzSession> {
    return new FuzzSession(await startDaemon({ startTimeoutMs: 60_000 }), options);
  }

  /** Sends a batch concurrently (a key rotation last and alone, so no in-flight request sees a stale key); returns its failures. */
  async sendBatch(batch: FuzzRequest[]): Promise<Failure[]> {
    const rotating = batch.filter(isKeyRotation);
    const rest = batch.filter((r) => !isKeyRotation(r));
    const found = (await Promise.all(rest.map((r) => this.sendOne(r)))).flat();
    for (const r of rotating) found.push(...(await this.sendOne(r)));
    return found;
  }

  /** Fails unless GET /api/v1/status answers a 200 envelope within the budget in one of the allowed fresh attempts. */
  async checkStatus(): Promise<Failure | null> {
    this.counts.statusChecks += 1;
    const bytes = Buffer.from(`GET /api/v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${this.state.key}\r\n\r\n`, 'latin1');
    const seen: string[] = [];
    for (let attempt = 1; attempt <= this.options.statusAttempts; attempt += 1) {
      if (attempt > 1) this.counts.statusRetries += 1;
      const outcome = await sendRaw({ port: this.daemon.port, bytes, localAddress: '127.0.0.1', timeoutMs: this.options.timeoutMs });
      const good = outcome.kind === 'response' && outcome.status === 200 && judgeEnvelope(200, outcome.body, '/status').kind === 'ok';
      if (good && outcome.ms <= this.options.statusBudgetMs) return null;
      seen.push(`${describe(outcome)} in ${Math.round(outcome.ms)} ms`);
    }
    return this.record({ reason: `GET /api/v1/status not answered 200 within ${this.options.statusBudgetMs} ms in ${this.options.statusAttempts} fresh attempts`, request: showBytes(bytes), source: '127.0.0.1', answer: seen.join(' | ') });
  }

  /** Lines the daemon wrote to stderr that report a failed request (a bug: the 500 path logs them). */
  daemonErrors(): string[] {
    return `${this.daemon.stdout()}\n${this.stderr}`.split('\n').filter((line) => /request failed|uncaught|unhandled/i.test(line));
  }

  /** Peak resident memory of the daemon so far, in MiB (VmHWM), or null when unreadable. */
  peakRssMiB(): number | null {
    const m = /VmHWM:\s+(\d+) kB/.exec(readProc(`/proc/${this.daemon.proc.pid}/status`));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  }

  /** Stops the daemon (SIGTERM, then SIGKILL if it has not exited within the limit); safe to call twice. */
  async stop(limitMs = 15_000): Promise<number | null> {
    const proc = this.daemon.proc;
    const killer = setTimeout(() => proc.kill('SIGKILL'), limitMs);
    try {
      return await this.daemon.stop('SIGTERM');
    } finally {
      clearTimeout(killer);
    }
  }

  private async sendOne(req: FuzzRequest): Promise<Failure[]> {
    const rendered = renderRequest(req, this.state);
    const outcome = await sendRaw({ port: this.daemon.port, bytes: rendered.bytes, localAddress: rendered.localAddress, endAfterWrite: rendered.endAfterWrite, head: rendered.head, timeoutMs: this.options.timeoutMs });
    const verdict = judge(req, rendered, outcome);
    this.tally(outcome, verdict.kind === 'documented-5xx', req.protocol);
    if (verdict.kind === 'known-finding') this.counts.knownFindings[verdict.id] = (this.counts.knownFindings[verdict.id] ?? 0) + 1;
    if (outcome.kind === 'response') this.learn(req, outcome.status, outcome.body);
    if (isKeyRotation(req) && outcome.kind !== 'response') await this.resyncKey();
    if (verdict.kind !== 'fail') return [];
    return [this.record({ reason: verdict.reason, request: showBytes(rendered.bytes), source: rendered.localAddress, answer: describe(outcome) })];
  }

  private tally(outcome: RawOutcome, documented: boolean, protocol: boolean): void {
    const c = this.counts;
    c.requests += 1;
    const cls = outcome.kind === 'response' ? `${Math.floor(outcome.status / 100)}xx` : outcome.kind;
    c.byClass[cls] = (c.byClass[cls] ?? 0) + 1;
    if (outcome.kind === 'response') c.byStatus[outcome.status] = (c.byStatus[outcome.status] ?? 0) + 1;
    if (outcome.kind === 'response' && outcome.status >= 500) {
      if (documented) c.documented5xx += 1;
      else c.undocumented5xx += 1;
    }
    if (outcome.kind === 'timeout') c.hangs += 1;
    if (outcome.kind === 'closed' && protocol) c.closedProtocol += 1;
  }

  /** Remembers printer paths, tags, job ids and share uuids the daemon made, and a regenerated key. */
  private learn(req: FuzzRequest, status: number, body: Buffer): void {
    const content = parseContent(body);
    if (!content) return;
    if (isKeyRotation(req) && status === 200 && typeof content.apiKey === 'string') this.state.key = content.apiKey;
    if (status === 201 && typeof content.path === 'string' && req.segments[0] === 'printers') push(this.state.printers, content.path);
    if (Array.isArray(content.tags)) for (const t of content.tags) if (typeof t === 'string') push(this.state.tags, t);
    if (typeof content.jobId === 'string') push(this.state.jobs, content.jobId);
    if (status === 201 && typeof content.uuid === 'string') push(this.state.shares, content.uuid);
  }

  /** After a key rotation whose answer was lost (the client hung up first), takes the key the daemon persisted. */
  private async resyncKey(): Promise<void> {
    await until('the API key in settings.json works', async () => {
      const key = persistedKey(this.daemon.dataDir);
      if (!key) return false;
      // a fresh source address per try (the file may still hold the old key), so stale tries trip no brute-force limit
      const probe = (this.resyncProbes += 1);
      const bytes = Buffer.from(`GET /api/v1/status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\n\r\n`, 'latin1');
      const outcome = await sendRaw({ port: this.daemon.port, bytes, localAddress: `127.0.${1 + Math.floor(probe / 250) % 250}.${1 + (probe % 250)}`, timeoutMs: this.options.timeoutMs });
      if (outcome.kind !== 'response' || outcome.status !== 200) return false;
      this.state.key = key;
      return true;
    });
  }

  private record(failure: Failure): Failure {
    this.counts.failures += 1;
    this.failures.push(failure);
    return failure;
  }
}

function isKeyRotation(req: FuzzRequest): boolean {
  return req.prefix === '/api/v1' && req.segments.length === 2 && req.segments[0] === 'settings' && req.segments[1] === 'api-key';
}

function persistedKey(dataDir: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as { apiKey?: string }).apiKey ?? null;
  } catch {
    return null;
  }
}

function push(pool: string[], value: string): void {
  if (!pool.includes(value)) pool.push(value);
  if (pool.length > 200) pool.shift();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function parseContent(body: Buffer): any {
  try {
    const content = JSON.parse(body.toString('utf8'))?.result?.content;
    return typeof content === 'object' && content !== null ? content : null;
  } catch {
    return null;
  }
}

/** One line describing an answer: status and body head, or how the connection ended. */
export function describe(outcome: RawOutcome): string {
  if (outcome.kind === 'response') return `HTTP ${outcome.status} ${JSON.stringify(outcome.body.subarray(0, 600).toString('utf8'))}`;
  if (outcome.kind === 'closed') return `connection closed without an answer${outcome.error ? ` (${outcome.error})` : ''}, ${outcome.received.length} bytes received`;
  return `no answer within ${Math.round(outcome.ms)} ms (${outcome.received.length} bytes received)`;
}

function readProc(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}
