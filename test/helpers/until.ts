// Bounded waiting for a condition in tests: a limit for a loaded machine, never a timing assertion.
import assert from 'node:assert/strict';

/** Polls `condition` every 5 ms until it holds; fails naming `what` after `limitMs`. */
export async function until(what: string, condition: () => boolean | Promise<boolean>, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) assert.fail(`not within ${limitMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Polls `probe` every 5 ms until it gives a value (not null, undefined or false) and returns it; fails naming `what` after `limitMs`. */
export async function valueWithin<T>(what: string, limitMs: number, probe: () => T | null | undefined | false | Promise<T | null | undefined | false>): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) assert.fail(`not within ${limitMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
