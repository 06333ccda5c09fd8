// Settings store: change listeners, and the renderWorkers setting with its CPU-count default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
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
