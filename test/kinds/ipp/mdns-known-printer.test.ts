// Discovery leaves printers that have a record to their runtimes (one owner of each device), in a private network namespace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

test('a configured raw printer also advertised over mDNS is never probed by discovery (in a private network namespace)', () => {
  const scenario = join(__dirname, 'mdns-known-printer.scenario.ts');
  const script = `ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && exec "${process.execPath}" --import tsx --test --test-reporter=tap "${scenario}"`;
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync('unshare', ['--net', 'sh', '-c', script], { encoding: 'utf8', cwd: join(__dirname, '..', '..', '..'), timeout: 60_000, env });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /# pass 1\n/);
  assert.match(run.stdout, /# fail 0\n/);
});
