// The outbox journal: what is added survives a reopen in order, done and dropped records stick, torn tails, compaction, bounds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { silentLogger } from '../../src/log';
import { DEFAULT_OUTBOX_BOUNDS, Outbox, type OutboxBounds } from '../../src/webhooks/outbox';
import type { WebhookEvent } from '../../src/webhooks/webhook-event';
import { tempDir } from '../helpers/temp-dir';

const event = (id: number, data: unknown = { n: id }): WebhookEvent => ({ id, type: 'device.settings', time: new Date(0).toISOString(), data });

function journal(bounds: OutboxBounds = DEFAULT_OUTBOX_BOUNDS): { file: string; open: () => Promise<Outbox> } {
  const file = join(tempDir('outbox'), 'hook.outbox');
  return { file, open: () => Outbox.open(file, bounds, silentLogger) };
}

/** Takes every pending delivery off the head (marking each done) and returns their delivery ids. */
async function drainAll(outbox: Outbox): Promise<string[]> {
  const ids: string[] = [];
  for (let head = await outbox.first(); head; head = await outbox.first()) {
    ids.push(head.deliveryId);
    await outbox.done(head.seq);
  }
  return ids;
}

test('deliveries added at once are all stored, in order, and read back with their events after a reopen', async () => {
  const j = journal();
  const outbox = await j.open();
  const stored = await Promise.all(Array.from({ length: 50 }, (_, i) => outbox.add(`boot.${i + 1}`, event(i + 1), 1000 + i)));
  assert.ok(stored.every(Boolean));
  assert.equal(outbox.pending, 50);
  await outbox.close();
  const again = await j.open();
  assert.equal(again.pending, 50);
  const head = await again.first();
  assert.deepEqual(head, { seq: head!.seq, deliveryId: 'boot.1', firstAt: 1000, event: event(1) });
  assert.deepEqual(await drainAll(again), Array.from({ length: 50 }, (_, i) => `boot.${i + 1}`));
  await again.close();
});

test('done and dropped deliveries stay gone after a reopen, and the dropped count is kept', async () => {
  const j = journal();
  const outbox = await j.open();
  for (let i = 1; i <= 4; i += 1) await outbox.add(`b.${i}`, event(i), 0);
  await outbox.done((await outbox.first())!.seq);
  await outbox.drop((await outbox.first())!.seq);
  assert.equal(outbox.dropped, 1);
  await outbox.close();
  const again = await j.open();
  assert.equal(again.pending, 2);
  assert.equal(again.dropped, 1);
  assert.equal((await again.first())!.deliveryId, 'b.3');
  await again.close();
  // the reopen compacted the journal to the dropped count and the two pending lines
  assert.equal(readFileSync(j.file, 'utf8').trim().split('\n').length, 3);
});

test('a torn last line (a power cut mid-write) is skipped, and the next line starts clean', async () => {
  const j = journal();
  const outbox = await j.open();
  await outbox.add('b.1', event(1), 0);
  await outbox.close();
  appendFileSync(j.file, '{"op":"pending","seq":2,"deliveryId":"b.2","fir');
  const again = await j.open();
  assert.equal(again.pending, 1);
  await again.add('b.3', event(3), 0);
  await again.close();
  const third = await j.open();
  assert.deepEqual(await drainAll(third), ['b.1', 'b.3']);
  await third.close();
});

test('the journal is compacted as deliveries finish: it stays small while pending ones keep their events', async () => {
  const j = journal({ maxPending: 10_000, maxBytes: 1 << 20, compactAboveBytes: 4096 });
  const outbox = await j.open();
  const big = 'x'.repeat(200);
  await outbox.add('keep.1', event(1, { big }), 0);
  for (let i = 2; i < 200; i += 1) {
    await outbox.add(`b.${i}`, event(i, { big }), 0);
    await outbox.done(i); // seq i: everything but the first is delivered
  }
  assert.ok(statSync(j.file).size < 8192, `journal is ${statSync(j.file).size} bytes`);
  assert.deepEqual(readdirSync(join(j.file, '..')), ['hook.outbox'], 'no backup or temporary is left beside the journal');
  const head = await outbox.first();
  assert.deepEqual(head!.event, event(1, { big }));
  await outbox.close();
  const again = await j.open();
  assert.equal(again.pending, 1);
  assert.deepEqual((await again.first())!.event, event(1, { big }));
  await again.close();
});

test('beyond its bounds the outbox refuses new deliveries and counts them as dropped, across a reopen', async () => {
  const j = journal({ maxPending: 3, maxBytes: 1 << 20, compactAboveBytes: 1 << 20 });
  const outbox = await j.open();
  const results = await Promise.all([1, 2, 3, 4, 5].map((i) => outbox.add(`b.${i}`, event(i), 0)));
  assert.deepEqual(results, [true, true, true, false, false]);
  assert.equal(outbox.pending, 3);
  assert.equal(outbox.dropped, 2);
  await outbox.done((await outbox.first())!.seq);
  assert.equal(await outbox.add('b.6', event(6), 0), true, 'room again once one is delivered');
  await outbox.close();
  const again = await j.open();
  assert.equal(again.dropped, 2);
  assert.deepEqual(await drainAll(again), ['b.2', 'b.3', 'b.6']);
  await again.close();
});

test('a byte bound refuses an event that would pass it', async () => {
  const j = journal({ maxPending: 10_000, maxBytes: 600, compactAboveBytes: 1 << 20 });
  const outbox = await j.open();
  assert.equal(await outbox.add('b.1', event(1, 'x'.repeat(300)), 0), true);
  assert.equal(await outbox.add('b.2', event(2, 'x'.repeat(300)), 0), false);
  assert.equal(outbox.dropped, 1);
  await outbox.close();
});

test('remove deletes the journal', async () => {
  const j = journal();
  const outbox = await j.open();
  await outbox.add('b.1', event(1), 0);
  await outbox.remove();
  assert.deepEqual(readdirSync(join(j.file, '..')), []);
});
