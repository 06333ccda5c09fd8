// "Hold under abuse": the seeded fuzz run (test/fuzz/fuzz-runner.ts) in a loopback-only network namespace; passes when the child passed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runInNetns } from './netns-run';
/** Requests in `npm test` (about 15 s on 2 cores); `npm run fuzz` sends 100,000. */
const REQUESTS = 6000;
/** The whole child, daemon start included, must end within this or it is killed (a loaded machine, not a timing assertion). */
const CHILD_LIMIT_MS = 180_000;

test(`fuzz: ${REQUESTS} seeded requests over every route get a well-formed 2xx/4xx envelope (or a documented print 5xx), no hang, and /status stays under 100 ms`, { timeout: CHILD_LIMIT_MS + 10_000 }, async (t) => {
  const { code, output } = await runInNetns([process.execPath, '--import', 'tsx', 'test/fuzz/fuzz-runner.ts', '--requests', String(REQUESTS)], CHILD_LIMIT_MS);
  for (const line of output.trimEnd().split('\n')) t.diagnostic(line.length > 2000 ? `${line.slice(0, 2000)}…` : line);
  assert.match(output, /network namespace net:\[\d+\]: interfaces lo only/, 'the child checked its namespace first');
  assert.equal(code, 0, `the fuzz run failed:\n${output.slice(-20_000)}`);
});
