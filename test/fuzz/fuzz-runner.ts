// The fuzz run itself, meant to run inside scripts/in-netns.sh: checks isolation, starts the daemon, runs the seeded property, prints counts.
// usage: node --import tsx test/fuzz/fuzz-runner.ts [--requests N] [--seed S] [--batch B] [--timeout-ms T] [--collect] [--shrink]
import fc from 'fast-check';
import { FuzzSession, type Failure } from './fuzz-session';
import { assertLoopbackOnly } from './netns-guard';
import { fuzzRequest } from './request-arbitrary';

/** The seed used unless --seed or FUZZ_SEED says otherwise: fixed, so every run sends the same requests. */
export const DEFAULT_SEED = 20_260_611;

/** Options of a run. */
export interface RunOptions {
  requests: number;
  seed: number;
  batch: number;
  timeoutMs: number;
  /** Keep going after a failed answer and report them all (the long run); otherwise stop at the first. */
  collect: boolean;
  /** Let fast-check shrink a failure (slow against a live daemon). */
  shrink: boolean;
}

/** Parses argv (and FUZZ_SEED); throws on an unknown flag. */
export function parseRunOptions(argv: string[], env: NodeJS.ProcessEnv): RunOptions {
  const options: RunOptions = { requests: 2000, seed: env.FUZZ_SEED ? Number(env.FUZZ_SEED) : DEFAULT_SEED, batch: 4, timeoutMs: 15_000, collect: false, shrink: false };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const num = () => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n)) throw new Error(`${flag} needs an integer`);
      return n;
    };
    if (flag === '--requests') options.requests = num();
    else if (flag === '--seed') options.seed = num();
    else if (flag === '--batch') options.batch = num();
    else if (flag === '--timeout-ms') options.timeoutMs = num();
    else if (flag === '--collect') options.collect = true;
    else if (flag === '--shrink') options.shrink = true;
    else throw new Error(`unknown flag ${flag}`);
  }
  return options;
}

/** Runs the property; resolves with the exit code (0: every answer well-formed, no 5xx beyond the documented ones, no hang). */
export async function runFuzz(options: RunOptions, log: (line: string) => void): Promise<number> {
  log(assertLoopbackOnly());
  const replay = `replay: FUZZ_SEED=${options.seed} npm run fuzz -- --requests ${options.requests} --batch ${options.batch}`;
  log(`seed ${options.seed}, ${options.requests} requests in batches of ${options.batch} (${replay})`);
  const session = await FuzzSession.start({ timeoutMs: options.timeoutMs, statusBudgetMs: 100, statusAttempts: 5 });
  const started = Date.now();
  let error: string | null = null;
  let peakRss: number | null = null;
  try {
    const details = await fc.check(property(session, options, log), { seed: options.seed, numRuns: Math.ceil(options.requests / options.batch), endOnFailure: !options.shrink });
    // fast-check's own report would print the whole batch (megabytes); the error names the exact bytes instead
    if (details.failed) error = `run ${details.numRuns} failed (seed ${details.seed}, path "${details.counterexamplePath}"):\n${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`;
  } finally {
    peakRss = session.peakRssMiB();
    const code = await session.stop();
    log(`daemon stopped (exit code ${code})`);
  }
  report(session, Date.now() - started, peakRss, log);
  if (error) log(`FAILED (${replay}): ${error}`);
  return error || session.failures.length > 0 || session.daemonErrors().length > 0 ? 1 : 0;
}

/** One run: a batch of requests sent at once, each answer judged, then the status check. */
function property(session: FuzzSession, options: RunOptions, log: (line: string) => void) {
  let progressAt = 0;
  return fc.asyncProperty(fc.array(fuzzRequest, { minLength: options.batch, maxLength: options.batch }), async (batch) => {
    const failures = await session.sendBatch(batch);
    const status = await session.checkStatus();
    if (status) failures.push(status);
    if (session.counts.requests >= progressAt + 10_000) {
      progressAt = session.counts.requests;
      log(`… ${progressAt} requests, ${JSON.stringify(session.counts.byClass)}`);
    }
    for (const f of failures) if (options.collect) log(describeFailure(f));
    if (failures.length > 0 && (!options.collect || status)) throw new Error(failures.map(describeFailure).join('\n'));
  });
}

function describeFailure(f: Failure): string {
  return `FAILURE: ${f.reason}\n  request (from ${f.source}): ${f.request}\n  answer: ${f.answer}`;
}

function report(session: FuzzSession, ms: number, peakRss: number | null, log: (line: string) => void): void {
  const c = session.counts;
  log(`requests: ${c.requests} in ${(ms / 1000).toFixed(1)} s`);
  log(`by status class: ${JSON.stringify(c.byClass)}`);
  log(`by status: ${JSON.stringify(c.byStatus)}`);
  log(`5xx: ${c.documented5xx + c.undocumented5xx} (documented print-route 502/503/507: ${c.documented5xx}; other: ${c.undocumented5xx})`);
  log(`hangs (no answer, no close within the client timeout): ${c.hangs}`);
  log(`closed without answer (HTTP-malformed requests only, allowed): ${c.closedProtocol}`);
  log(`known findings (reported in test/fuzz/findings.test.ts): ${JSON.stringify(c.knownFindings)}`);
  log(`status checks: ${c.statusChecks} (${c.statusRetries} retries)`);
  log(`failures: ${c.failures}`);
  log(`daemon peak RSS: ${peakRss ?? '?'} MiB`);
  const errors = session.daemonErrors();
  if (errors.length > 0) log(`daemon logged ${errors.length} failed request(s):\n${errors.slice(0, 10).join('\n')}`);
}

if (require.main === module) {
  runFuzz(parseRunOptions(process.argv.slice(2), process.env), (line) => console.log(line)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.stack : err);
      process.exit(1);
    },
  );
}
