// Discovery leaves printers that have a record to their runtimes (one owner of each device), in a private network namespace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runInLoopbackNetns } from '../../helpers/loopback-netns';

test('a configured raw printer also advertised over mDNS is never probed by discovery (in a private network namespace)', () => {
  const scenario = join(__dirname, 'mdns-known-printer.scenario.ts');
  const run = runInLoopbackNetns(scenario);
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /# pass 1\n/);
  assert.match(run.stdout, /# fail 0\n/);
});
