// mDNS discovery and advertising, run in a private network namespace whose loopback carries multicast.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runInLoopbackNetns } from '../helpers/loopback-netns';

test('advertised printers are discovered, and the device advertises itself (in a private network namespace)', () => {
  const scenario = join(__dirname, 'mdns-netns.scenario.ts');
  const run = runInLoopbackNetns(scenario);
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /# pass 3/);
  assert.match(run.stdout, /# fail 0/);
});
