// The printed tracker's arithmetic: which followed jobs a count of unprinted formats proves printed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PrintedTracker } from '../../src/printers/printed-tracker';
import { until } from '../helpers/until';

function tracker(answers: Array<number | null>, maxFollowMs = 60_000) {
  const printed: string[] = [];
  let asked = 0;
  const t = new PrintedTracker<string>({
    unprinted: async () => answers[Math.min(asked++, answers.length - 1)],
    onPrinted: (job) => printed.push(job),
    pollMs: 1,
    maxFollowMs,
    maxSilentProbes: 3,
    now: Date.now,
  });
  return { t, printed, asked: () => asked };
}

test('a count covered by later jobs\' formats proves the earlier jobs printed, oldest first', async () => {
  const { t, printed } = tracker([5, 3, 2, 0]);
  t.follow('a', 2);
  t.follow('b', 1);
  t.follow('c', 2);
  // 5 unprinted: nothing; 3: only a (b and c hold 3); 2: b too (c holds 2); 0: c
  await until('all printed', () => printed.length === 3);
  assert.deepEqual(printed, ['a', 'b', 'c']);
  assert.equal(t.following, 0);
});

test('more unprinted formats than followed ones (another sender\'s labels) claim nothing until they drop', async () => {
  const { t, printed, asked } = tracker([9, 9, 9, 1]);
  t.follow('a', 1);
  t.follow('b', 1);
  await until('four probes', () => asked() >= 4);
  await until('a printed', () => printed.length === 1);
  assert.deepEqual(printed, ['a']);
  t.stop();
});

test('three probes without an answer give every followed job up; nothing is claimed', async () => {
  const { t, printed, asked } = tracker([null, null, null, 0]);
  t.follow('a', 1);
  await until('three probes', () => asked() >= 3);
  await until('given up', () => t.following === 0);
  assert.deepEqual(printed, []);
});

test('a job followed longer than the limit is given up', async () => {
  const { t, printed } = tracker([1], 0);
  t.follow('a', 1);
  await until('given up', () => t.following === 0);
  assert.deepEqual(printed, []);
});

test('a job with no label format is not followed', () => {
  const { t } = tracker([0]);
  t.follow('a', 0);
  assert.equal(t.following, 0);
});
