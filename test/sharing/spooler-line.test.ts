// Raw-port jobs that find the spooler full wait in one first-in first-out line: busy refusals are tried again, other
// refusals end a job at once, a job is given up after its wait, reclaim resets the oldest waiting connection that holds
// one, and close gives up the rest.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../src/errors';
import { SpoolerLine, type LineJob } from '../../src/sharing/spooler-line';
import { until } from '../helpers/until';

/** A fake spooler taking jobs while `room` is true, recording their names in order. */
function spooler() {
  const state = { room: false, stored: [] as string[], tries: 0 };
  const job = (name: string, reclaim: () => boolean = () => true): LineJob => ({
    store: async () => {
      state.tries += 1;
      if (!state.room) throw new AppError(state.tries % 2 ? 'QUEUE_FULL' : 'SPOOL_FULL', 'full');
      state.stored.push(name);
    },
    reclaim,
  });
  return { state, job };
}

test('jobs wait while the spooler is full and are stored in order of arrival once it has room', async () => {
  const { state, job } = spooler();
  const line = new SpoolerLine({ waitMs: 60_000, retryMs: 5, hasRoom: () => true });
  const done = ['a', 'b', 'c'].map((name) => line.add(job(name)));
  await until('the head was refused as busy more than once', () => state.tries >= 3);
  assert.deepEqual(state.stored, []);
  assert.equal(line.size(), 3);
  state.room = true;
  await Promise.all(done);
  assert.deepEqual(state.stored, ['a', 'b', 'c']);
  assert.equal(line.size(), 0);
});

test('a job arriving while others wait does not overtake them, even when there is room at that moment', async () => {
  const { state, job } = spooler();
  let room = false;
  const line = new SpoolerLine({ waitMs: 60_000, retryMs: 5, hasRoom: () => room });
  const first = line.add(job('first'));
  await until('the first waits', () => line.size() === 1);
  state.room = true;
  const second = line.add(job('second'));
  room = true;
  await Promise.all([first, second]);
  assert.deepEqual(state.stored, ['first', 'second']);
});

test('a refusal other than busy ends that job at once; the next goes on', async () => {
  const line = new SpoolerLine({ waitMs: 60_000, retryMs: 5, hasRoom: () => true });
  const bad = line.add({ store: async () => Promise.reject(new AppError('PRINTER_NOT_FOUND', 'gone')), reclaim: () => true });
  let stored = false;
  const good = line.add({ store: async () => void (stored = true), reclaim: () => true });
  await assert.rejects(bad, /gone/);
  await good;
  assert.ok(stored);
});

test('a job waiting longer than waitMs is given up with the spooler\'s last refusal', async () => {
  const { job } = spooler();
  const line = new SpoolerLine({ waitMs: 20, retryMs: 5, hasRoom: () => true });
  await assert.rejects(line.add(job('late')), (err: unknown) => err instanceof AppError && (err.code === 'QUEUE_FULL' || err.code === 'SPOOL_FULL'));
  assert.equal(line.size(), 0);
});

test('reclaim resets the oldest waiting job that holds a connection; none there is false', async () => {
  const { state, job } = spooler();
  const line = new SpoolerLine({ waitMs: 60_000, retryMs: 5, hasRoom: () => false });
  const reclaimed: string[] = [];
  const closed = line.add(job('closed', () => false));
  const open = line.add(job('open', () => (reclaimed.push('open'), true)));
  const later = line.add(job('later', () => (reclaimed.push('later'), true)));
  assert.equal(line.reclaim(), true);
  assert.deepEqual(reclaimed, ['open'], 'the oldest that holds a connection; the closed one is skipped');
  await assert.rejects(open, (err: unknown) => err instanceof AppError && err.code === 'TOO_BUSY');
  assert.equal(line.size(), 2);
  line.close();
  await assert.rejects(closed, /closing/);
  await assert.rejects(later, /closing/);
  assert.equal(line.reclaim(), false, 'nothing waits');
  await assert.rejects(line.add(job('after')), /closing/);
  assert.deepEqual(state.stored, []);
});
