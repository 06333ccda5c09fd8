// The mDNS rescan leaves known printers to their runtimes (issue 28: one owner of each device), in a private network namespace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runInLoopbackNetns } from '../../helpers/loopback-netns';

test('a rescan sends no ~HS to a raw-socket printer it already knows (in a private network namespace)', () => {
  const scenario = join(__dirname, 'mdns-rescan.scenario.ts');
  const run = runInLoopbackNetns(scenario);
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /# pass 1\n/);
  assert.match(run.stdout, /# fail 0\n/);
});
