// mDNS advertisement of shared printers, checked with CUPS's ippfind through avahi, in a private network namespace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { NETNS_SETUP } from '../fixtures/avahi-netns';

test('ippfind finds each shared printer as _ipp._tcp,_universal and _ipps._tcp,_print with its TXT keys (private network namespace)', () => {
  const scenario = join(__dirname, 'ippfind-netns.scenario.ts');
  const script = `${NETNS_SETUP} && exec "${process.execPath}" --import tsx --test --test-reporter=tap "${scenario}"`;
  // the child runs its own test runner: it must not think it reports to this one
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const run = spawnSync('unshare', ['--net', '--mount', '--propagation', 'private', 'sh', '-c', script], { encoding: 'utf8', cwd: join(__dirname, '..', '..'), timeout: 120_000, env });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  assert.match(run.stdout, /# pass 4/);
  assert.match(run.stdout, /# fail 0/);
});
