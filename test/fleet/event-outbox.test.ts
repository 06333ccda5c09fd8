// The events outbox: kept on disk, drained in order, bounded to the newest events behind a reset line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventOutbox, RESET_LINE } from '../../src/fleet/event-outbox';
import { silentLogger } from '../../src/log';
import { tempDir } from '../helpers/temp-dir';

const line = (id: number) => JSON.stringify({ id, type: 'job.state', data: {} });

test('events survive a reopen and are drained in order, then the outbox is empty', async () => {
  const dir = tempDir('fleet-outbox');
  const first = new EventOutbox(dir, { maxEvents: 100, maxBytes: 1 << 20 }, silentLogger);
  await Promise.all([1, 2, 3].map((id) => first.add(line(id))));
  const reopened = new EventOutbox(dir, { maxEvents: 100, maxBytes: 1 << 20 }, silentLogger);
  assert.ok(reopened.pending > 0);
  const seen: string[] = [];
  assert.equal(await reopened.drain(async (l) => void seen.push(l)), true);
  assert.deepEqual(seen, [line(1), line(2), line(3)]);
  assert.equal(reopened.pending, 0);
});

test('a failed publish keeps the events for the next drain', async () => {
  const outbox = new EventOutbox(tempDir('fleet-outbox'), { maxEvents: 100, maxBytes: 1 << 20 }, silentLogger);
  await outbox.add(line(1));
  assert.equal(await outbox.drain(() => Promise.reject(new Error('down'))), false);
  const seen: string[] = [];
  assert.equal(await outbox.drain(async (l) => void seen.push(l)), true);
  assert.deepEqual(seen, [line(1)]);
});

test('beyond its bounds it keeps the newest events, behind a reset', async () => {
  const outbox = new EventOutbox(tempDir('fleet-outbox'), { maxEvents: 10, maxBytes: 1 << 20 }, silentLogger);
  for (let id = 1; id <= 30; id += 1) await outbox.add(line(id));
  const seen: string[] = [];
  await outbox.drain(async (l) => void seen.push(l));
  assert.equal(seen[0], RESET_LINE);
  const ids = seen.slice(1).map((l) => JSON.parse(l).id as number);
  assert.ok(ids.length >= 10, `kept ${ids.length}`);
  assert.equal(ids.at(-1), 30);
  assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
  assert.ok(ids[0] > 1, 'the oldest were dropped');
});

test('pending counts the events being written too', async () => {
  const outbox = new EventOutbox(tempDir('fleet-outbox'), { maxEvents: 100, maxBytes: 1 << 20 }, silentLogger);
  const first = outbox.add(line(1));
  const counts: number[] = [outbox.pending];
  const second = outbox.add(line(2));
  counts.push(outbox.pending);
  // the first batch is being written while the second waits
  await Promise.resolve();
  counts.push(outbox.pending);
  await Promise.all([first, second]);
  counts.push(outbox.pending);
  assert.deepEqual(counts, [1, 2, 2, 2]);
});
