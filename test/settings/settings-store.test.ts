// Settings store: change listeners, the renderWorkers setting, and writes that reach the disk before memory, one at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../src/errors';
import { silentLogger } from '../../src/log';
import { renderWorkersOf } from '../../src/settings/render-workers';
import { SettingsStore } from '../../src/settings/settings-store';
import { tempDir } from '../helpers/temp-dir';

test('onChange listeners see each update once it is current, until unsubscribed', async () => {
  const store = new SettingsStore({ dataDir: tempDir('settings-store'), logger: silentLogger });
  const seen: Array<number | undefined> = [];
  const stop = store.onChange(() => seen.push(store.value.renderWorkers));
  await store.update((s) => {
    s.renderWorkers = 2;
  });
  stop();
  await store.update((s) => {
    s.renderWorkers = 3;
  });
  assert.deepEqual(seen, [2]);
});

test('renderWorkers defaults to the CPU count (1..16) and survives a restart when set', async () => {
  const dataDir = tempDir('settings-store');
  const store = new SettingsStore({ dataDir, logger: silentLogger });
  assert.equal(store.value.renderWorkers, undefined);
  assert.equal(renderWorkersOf(store.value), Math.min(16, Math.max(1, os.availableParallelism())));
  await store.update((s) => {
    s.renderWorkers = 5;
  });
  assert.equal(renderWorkersOf(new SettingsStore({ dataDir, logger: silentLogger }).value), 5);
});

test('a write that cannot reach the disk rejects with CHANGE_NOT_STORED and changes nothing, in memory or on disk', async () => {
  const dataDir = tempDir('settings-store');
  const store = new SettingsStore({ dataDir, logger: silentLogger });
  await store.persist();
  const before = store.value;
  const file = readFileSync(store.file, 'utf8');
  const seen: number[] = [];
  store.onChange(() => seen.push(1));
  // a directory where the temporary's rename must land: the write fails after the temporary was written
  mkdirSync(`${store.file}.bak`);
  writeFileSync(join(dataDir, 'settings.json.bak', 'keep'), '');
  await assert.rejects(
    store.update((s) => {
      s.apiKey = 'a-new-key-that-must-not-apply';
    }),
    (err: unknown) => err instanceof AppError && err.code === 'CHANGE_NOT_STORED',
  );
  assert.equal(store.value, before);
  assert.equal(readFileSync(store.file, 'utf8'), file);
  assert.deepEqual(seen, []);
  assert.deepEqual(readdirSync(dataDir).filter((n) => n.endsWith('.tmp')), []);
});

test('updates issued together are applied and written one after the other, each on the state the previous one left', async () => {
  const dataDir = tempDir('settings-store');
  const store = new SettingsStore({ dataDir, logger: silentLogger });
  const writes = Array.from({ length: 20 }, (_, i) =>
    store.update((s) => {
      if (i === 7) throw new Error('refused');
      s.allowedOrigins = [...s.allowedOrigins, `o${i}`];
    }),
  );
  const results = await Promise.allSettled(writes);
  assert.deepEqual(results.map((r) => r.status).filter((s) => s === 'rejected').length, 1);
  const expected = ['*', ...Array.from({ length: 20 }, (_, i) => `o${i}`).filter((o) => o !== 'o7')];
  assert.deepEqual(store.value.allowedOrigins, expected);
  assert.deepEqual(new SettingsStore({ dataDir, logger: silentLogger }).value.allowedOrigins, expected);
});

test('persist leaves an unchanged settings.json alone (a start on read-only flash), and a start sweeps leftover temporaries', async () => {
  const dataDir = tempDir('settings-store');
  const first = new SettingsStore({ dataDir, logger: silentLogger });
  await first.persist();
  const inode = statSync(first.file).ino;
  writeFileSync(join(dataDir, '.settings.json.4242.1.tmp'), '{"half');
  writeFileSync(join(dataDir, 'other.tmp'), 'not ours');
  const warnings: string[] = [];
  const second = new SettingsStore({ dataDir, logger: { ...silentLogger, warn: (msg) => warnings.push(msg) } });
  await second.persist();
  assert.equal(statSync(second.file).ino, inode, 'settings.json was not rewritten');
  assert.deepEqual(readdirSync(dataDir).sort(), ['other.tmp', 'settings.json']);
  assert.deepEqual(warnings, ['removed temporaries of an interrupted settings write']);
  assert.equal(second.value.apiKey, first.value.apiKey);
});

test('a write keeps the previous content as settings.json.bak, read (and rewritten) when settings.json is corrupt', async () => {
  const dataDir = tempDir('settings-store');
  const store = new SettingsStore({ dataDir, logger: silentLogger });
  await store.persist();
  await store.update((s) => {
    s.alias = 'one';
  });
  await store.update((s) => {
    s.alias = 'two';
  });
  assert.equal(JSON.parse(readFileSync(`${store.file}.bak`, 'utf8')).alias, 'one');
  writeFileSync(store.file, '{"trunc');
  const restored = new SettingsStore({ dataDir, logger: silentLogger });
  assert.equal(restored.value.alias, 'one');
  await restored.persist();
  assert.equal(readFileSync(`${store.file}.corrupt`, 'utf8'), '{"trunc', 'the broken copy is kept aside');
  assert.equal(JSON.parse(readFileSync(`${store.file}.bak`, 'utf8')).alias, 'one', 'the broken copy never becomes the backup');
  assert.equal(JSON.parse(readFileSync(store.file, 'utf8')).alias, 'one');
});

test('an update whose caller left before it was current changes nothing: not made when left before, written back when left during the write', async () => {
  const store = new SettingsStore({ dataDir: tempDir('settings-store'), logger: silentLogger });
  await store.persist();
  const file = readFileSync(store.file, 'utf8');
  const key = store.value.apiKey;
  const interrupted = (err: unknown) => err instanceof AppError && err.code === 'INTERRUPTED';
  const gone = new AbortController();
  gone.abort();
  await assert.rejects(store.update((s) => void (s.apiKey = 'never-made'), gone.signal), interrupted);
  const leaving = new AbortController();
  // the change is applied synchronously once the queue reaches it; the write after it takes further turns of the loop
  const pending = store.update((s) => {
    s.apiKey = 'never-shown';
    queueMicrotask(() => leaving.abort());
  }, leaving.signal);
  await assert.rejects(pending, interrupted);
  assert.equal(store.value.apiKey, key);
  assert.equal(readFileSync(store.file, 'utf8'), file);
  await store.update((s) => void (s.apiKey = 'shown'), new AbortController().signal);
  assert.equal(store.value.apiKey, 'shown');
});

test('a new device has no key and generates none; claim stores the first key (disk, then memory) and refuses a second', async () => {
  const dataDir = tempDir('settings-store');
  const store = new SettingsStore({ dataDir, logger: silentLogger });
  await store.persist();
  assert.equal(store.claimed, false);
  assert.equal(JSON.parse(readFileSync(store.file, 'utf8')).apiKey, null, 'no key is stored either');
  const alreadySetUp = (err: unknown) => err instanceof AppError && err.code === 'ALREADY_SET_UP';
  const [first, second] = await Promise.allSettled([store.claim('first-claim-0123456789'), store.claim('second-claim-0123456789')]);
  assert.equal(first.status, 'fulfilled');
  assert.ok(second.status === 'rejected' && alreadySetUp(second.reason), 'the later claim is refused');
  assert.equal(store.claimed, true);
  assert.equal(new SettingsStore({ dataDir, logger: silentLogger }).value.apiKey, 'first-claim-0123456789');
});

test('a claim that cannot be stored leaves the device unclaimed; a seeded key claims it at once', async () => {
  const dataDir = tempDir('settings-store');
  const store = new SettingsStore({ dataDir, logger: silentLogger });
  await store.persist();
  mkdirSync(`${store.file}.bak`);
  writeFileSync(join(dataDir, 'settings.json.bak', 'keep'), '');
  await assert.rejects(store.claim('first-claim-0123456789'), (err: unknown) => err instanceof AppError && err.code === 'CHANGE_NOT_STORED');
  assert.equal(store.claimed, false);
  const seeded = new SettingsStore({ dataDir: tempDir('settings-store'), seedApiKey: 'seeded-key-0123456789', logger: silentLogger });
  assert.equal(seeded.claimed, true);
  await assert.rejects(seeded.claim('first-claim-0123456789'), (err: unknown) => err instanceof AppError && err.code === 'ALREADY_SET_UP');
});
