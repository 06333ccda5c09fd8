// The events outbox: kept on disk, drained in order, bounded to the newest events behind a reset line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventOutbox, RESET_LINE } from '../../src/fleet/event-outbox';
import { silentLogger } from '../../src/log';
import { tempDir } from '../helpers/temp-dir';

const line = (id: number) => JSON.stringify({ id, type: 'job.state', data: {} });

test('events survive a reopen and are drained in order, then the outbox is empty', async () => {
  const dir = tempDir('fleet-outbox');
  const first = await EventOutbox.open(dir, { maxEvents: 100, maxBytes: 1 << 20 }, silentLogger);
  await Promise.all([1, 2, 3].map((id) => first.add(line(id))));
  const reopened = await EventOutbox.open(dir, { maxEvents: 100, maxBytes: 1 << 20 }, silentLogger);
  assert.ok(reopened.pending > 0);
  const seen: string[] = [];
  assert.equal(await reopened.drain(async (l) => void seen.push(l)), true);
  assert.deepEqual(seen, [line(1), line(2), line(3)]);
  assert.equal(reopened.pending, 0);
});

test('a failed publish keeps the events for the next drain', async () => {
  const outbox = await EventOutbox.open(tempDir('fleet-outbox'), { maxEvents: 100, maxBytes: 1 << 20 }, silentLogger);
  await outbox.add(line(1));
  assert.equal(await outbox.drain(() => Promise.reject(new Error('down'))), false);
  const seen: string[] = [];
  assert.equal(await outbox.drain(async (l) => void seen.push(l)), true);
  assert.deepEqual(seen, [line(1)]);
});

test('beyond its bounds it keeps the newest events, behind a reset', async () => {
  const outbox = await EventOutbox.open(tempDir('fleet-outbox'), { maxEvents: 10, maxBytes: 1 << 20 }, silentLogger);
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
  const outbox = await EventOutbox.open(tempDir('fleet-outbox'), { maxEvents: 100, maxBytes: 1 << 20 }, silentLogger);
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

/** An event line of about `size` bytes with its id. */
const bigLine = (id: number, size = 300) => JSON.stringify({ id, type: 'printer.updated', data: { pad: 'x'.repeat(size) } });

test('a file many chunks long is trimmed and drained in order, lines across chunk boundaries whole', async () => {
  const outbox = await EventOutbox.open(tempDir('fleet-outbox'), { maxEvents: 1000, maxBytes: 64 << 20 }, silentLogger);
  for (let id = 1; id <= 3000; id += 1) void outbox.add(bigLine(id, 100 + (id % 700)));
  await outbox.add(bigLine(3001));
  const seen: string[] = [];
  assert.equal(await outbox.drain(async (l) => void seen.push(l)), true);
  assert.equal(seen[0], RESET_LINE);
  const ids = seen.slice(1).map((l) => JSON.parse(l).id as number);
  assert.ok(ids.length >= 1000 && ids.length <= 1250, `kept ${ids.length}`);
  assert.equal(ids.at(-1), 3001);
  assert.deepEqual(ids, Array.from({ length: ids.length }, (_, i) => 3001 - ids.length + 1 + i), 'the newest, consecutive, in order');
  assert.equal(outbox.pending, 0);
});

test('the byte bound keeps only what fits, newest first', async () => {
  const outbox = await EventOutbox.open(tempDir('fleet-outbox'), { maxEvents: 100_000, maxBytes: 200_000 }, silentLogger);
  for (let id = 1; id <= 1000; id += 1) await outbox.add(bigLine(id, 300));
  const seen: string[] = [];
  await outbox.drain(async (l) => void seen.push(l));
  const kept = seen.slice(1);
  const bytes = kept.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
  assert.equal(seen[0], RESET_LINE);
  assert.ok(bytes <= 200_000 * 1.25 + 400, `kept ${bytes} bytes`);
  assert.equal(JSON.parse(kept.at(-1)!).id, 1000);
});

test('a drain that fails part way keeps only what was not delivered', async () => {
  const outbox = await EventOutbox.open(tempDir('fleet-outbox'), { maxEvents: 100_000, maxBytes: 64 << 20 }, silentLogger);
  for (let id = 1; id <= 300; id += 1) void outbox.add(line(id));
  await outbox.add(line(301));
  let published = 0;
  const failing = async () => {
    published += 1;
    if (published > 150) throw new Error('down');
  };
  assert.equal(await outbox.drain(failing, 64), false);
  const seen: string[] = [];
  assert.equal(await outbox.drain(async (l) => void seen.push(l), 64), true);
  // the first two windows (128 events) were delivered whole and are gone; the third failed and comes again
  assert.equal(JSON.parse(seen[0]).id, 129);
  assert.equal(JSON.parse(seen.at(-1)!).id, 301);
  assert.equal(seen.length, 301 - 128);
});
