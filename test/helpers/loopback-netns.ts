// Runs a node:test scenario file in a new network namespace that has only loopback (multicast routed on it, for mDNS).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { join } from 'node:path';

/** The repository root, where scenarios run (tsx resolves from there). */
const ROOT = join(__dirname, '..', '..');

/** Runs `scenario` with the TAP reporter under `unshare --net` (nothing can leave the machine); its exit status and output. */
export function runInLoopbackNetns(scenario: string, timeoutMs = 60_000): SpawnSyncReturns<string> {
  const script = `ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && exec "${process.execPath}" --import tsx --test --test-reporter=tap "${scenario}"`;
  // the child runs its own test runner: it must not think it reports to this one
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return spawnSync('unshare', ['--net', 'sh', '-c', script], { encoding: 'utf8', cwd: ROOT, timeout: timeoutMs, env });
}
