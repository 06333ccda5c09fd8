// mDNS discovery and advertising, run in a private network namespace whose loopback carries multicast.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

test('advertised printers are discovered, and the device advertises itself (in a private network namespace)', () => {
  const scenario = join(__dirname, 'mdns-netns.scenario.ts');
  const script = `ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && exec "${process.execPath}" --import tsx --test --test-reporter=tap "${scenario}"`;
  // the child runs its own test runner: it must not think it reports to this one
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync('unshare', ['--net', 'sh', '-c', script], { encoding: 'utf8', cwd: join(__dirname, '..', '..'), timeout: 60_000, env });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /# pass 3/);
  assert.match(run.stdout, /# fail 0/);
});
