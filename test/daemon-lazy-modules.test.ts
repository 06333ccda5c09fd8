// What the daemon's start-up does not load: modules a first request does not need wait for their first use.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');

/** Loads src/daemon.ts in a fresh Node (tsx) and returns the node_modules packages it loaded. */
function packagesLoadedByDaemon(): string[] {
  const script = `require(${JSON.stringify(resolve(ROOT, 'src', 'daemon.ts'))});
const names = new Set(Object.keys(require.cache).map((k) => /node_modules\\/((@[^/]+\\/)?[^/]+)/.exec(k)?.[1]).filter(Boolean));
process.stdout.write(JSON.stringify([...names]));`;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as string[];
}

test('the fleet bridge\'s MQTT client is not loaded until a fleet connection starts', () => {
  const loaded = packagesLoadedByDaemon();
  assert.ok(loaded.includes('@sinclair/typebox'), `the probe sees packages: ${loaded.join(', ')}`);
  assert.ok(!loaded.includes('mqtt'), 'mqtt loaded with the daemon');
});
