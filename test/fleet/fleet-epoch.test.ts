// The fleet epoch: +1 per successful connection, persisted; when it cannot be stored it goes on in memory and says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { FleetEpoch } from '../../src/fleet/fleet-epoch';
import { tempDir } from '../helpers/temp-dir';

test('the committed epoch survives a restart; next is one more', async () => {
  const dir = tempDir('fleet-epoch');
  const epoch = new FleetEpoch(dir);
  assert.equal(epoch.next, 1);
  await epoch.commit(epoch.next);
  await epoch.commit(epoch.next);
  assert.equal(new FleetEpoch(dir).current, 2);
  assert.equal(new FleetEpoch(dir).next, 3);
});

test('an epoch that cannot be stored goes on in memory, flagged', async () => {
  const dir = tempDir('fleet-epoch');
  mkdirSync(join(dir, 'epoch.json'));
  const epoch = new FleetEpoch(dir);
  await epoch.commit(epoch.next);
  assert.equal(epoch.current, 1);
  assert.equal(epoch.notStored, true);
  assert.equal(epoch.next, 2);
});
