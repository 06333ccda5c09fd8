// `printproxyd fleet update` as a user runs it (a child process of src/main.ts) against a real Mosquitto and stub devices.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { StubAnswer } from '../fixtures/fleet-device-stub';
import { startFleetCli, type FleetCli } from './fleet-cli-harness';

let cli: FleetCli;
before(async () => {
  cli = await startFleetCli();
});
after(() => cli.stop());

async function fleet(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const run = cli.run(...args);
  const code = await run.done;
  return { code, out: run.out(), err: run.err() };
}

/** A device that takes the update and, asked again, says how it ended. */
function updatingDevice(deviceId: string, end: string): StubAnswer {
  return (req) => (req.method === 'POST'
    ? { status: 202, body: { result: { content: { id: `u-${deviceId}`, phase: 'downloading' } } } }
    : { status: 200, body: { result: { content: { id: `u-${deviceId}`, phase: end, error: end === 'succeeded' ? null : 'the new slot was not ready' } } } });
}

const RELEASE = ['--url', 'https://updates.example/update-1.2.0.raucb', '--sha256', 'b'.repeat(64), '--size', '150000000', '--version', '1.2.0'];

test('update installs the release on each device in waves, one line per device, and stops after a wave that failed', async () => {
  const a = await cli.stub('upd-a', updatingDevice('upd-a', 'rolled-back'));
  const b = await cli.stub('upd-b', updatingDevice('upd-b', 'succeeded'));
  const run = await fleet('update', 'upd-a', 'upd-b', ...RELEASE, '--waves', '1,100%', '--max-failures', '0');
  assert.equal(run.code, 1, run.err);
  assert.match(run.out, /^upd-a accepted: update u-upd-a to 1\.2\.0$/m);
  assert.match(run.out, /^upd-a rolled-back: the new slot was not ready$/m);
  assert.match(run.out, /^stopped: 1 failed, more than --max-failures 0; not updated: upd-b$/m);
  assert.equal(b.requests.length, 0, 'the second wave never started');
  const post = a.requests[0];
  assert.equal(post.path, '/system/update');
  assert.equal(post.headers['Idempotency-Key'], 'fleet-update-1.2.0-upd-a');
  assert.deepEqual(post.body, { url: 'https://updates.example/update-1.2.0.raucb', sha256: 'b'.repeat(64), size: 150000000, version: '1.2.0', reboot: 'idle' });
});

test('update refuses a malformed release before it sends anything', async () => {
  const run = await fleet('update', 'upd-a', ...RELEASE.slice(0, 2), '--sha256', 'xyz', '--size', '1', '--version', '1.2.0');
  assert.equal(run.code, 2);
  assert.match(run.err, /--sha256 must be 64 hexadecimal digits/);
});
