// The fleet's update rollout (src/fleet/client/fleet-update.ts) against scripted devices: waves, one idempotency key
// per device, following each update to its end through a reboot, and the stop before the next wave.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FleetClientError } from '../../../src/errors';
import type { FleetRequest } from '../../../src/fleet/client/fleet-client';
import { rollOut, waveSizes, type FleetUpdate, type RolloutDeps } from '../../../src/fleet/client/fleet-update';

const UPDATE: FleetUpdate = { url: 'https://updates.example/update-1.2.0.raucb', sha256: 'a'.repeat(64), size: 123_456_789, version: '1.2.0', reboot: 'idle' };
const OPTIONS = { waves: '1,50%,100%', maxFailures: 0, requestMs: 1000, deviceMs: 60_000, pollMs: 5000 };

/** A device's script: what POST answers, and the phases GET /system/update walks through (null: no answer, rebooting). */
interface Script {
  post: { status: number; body: unknown };
  phases: Array<string | null>;
}

/** Deps over scripted devices and a clock that moves only when the rollout waits. */
function devices(scripts: Record<string, Script>) {
  let clock = 0;
  const requests: Array<{ device: string; request: FleetRequest }> = [];
  const lines: string[] = [];
  const deps: RolloutDeps = {
    request: async (device, request) => {
      requests.push({ device, request });
      const script = scripts[device];
      if (request.method === 'POST') return { id: null, ...script.post };
      const phase = script.phases.length > 1 ? script.phases.shift()! : script.phases[0];
      if (phase === null) throw new FleetClientError('FLEET_TIMEOUT', `no answer from ${device}`);
      return { id: null, status: 200, body: { result: { content: { id: `u-${device}`, phase, error: phase === 'rolled-back' ? 'the new slot was not ready' : null } } } };
    },
    wait: async (ms) => {
      clock += ms;
    },
    line: (text) => lines.push(text),
    now: () => clock,
  };
  return { deps, requests, lines };
}

const accepted = (device: string) => ({ status: 202, body: { result: { content: { id: `u-${device}`, phase: 'downloading' } } } });

test('waves reach cumulative counts: a share rounds up, each wave adds one at least, the last reaches all', () => {
  assert.deepEqual(waveSizes('1,10%,100%', 50), [1, 5, 50]);
  assert.deepEqual(waveSizes('1,10%', 3), [1, 2, 3]);
  assert.deepEqual(waveSizes('100%', 7), [7]);
  assert.deepEqual(waveSizes('2,2,5', 4), [2, 3, 4]);
  assert.throws(() => waveSizes('1,ten', 5), /--waves: ten/);
});

test('every device gets the release with a key of its own and is followed through its reboot to succeeded', async () => {
  const { deps, requests, lines } = devices({
    a: { post: accepted('a'), phases: ['installing', null, null, 'succeeded'] },
    b: { post: accepted('b'), phases: ['succeeded'] },
    c: { post: accepted('c'), phases: ['awaiting-reboot', 'succeeded'] },
  });
  const result = await rollOut(deps, ['a', 'b', 'c'], UPDATE, OPTIONS);
  assert.deepEqual(result, { succeeded: ['a', 'b', 'c'], failed: [], notUpdated: [] });
  const posts = requests.filter((r) => r.request.method === 'POST');
  assert.deepEqual(posts.map((p) => [p.device, p.request.path, p.request.headers?.['Idempotency-Key']]), [
    ['a', '/system/update', 'fleet-update-1.2.0-a'], ['b', '/system/update', 'fleet-update-1.2.0-b'], ['c', '/system/update', 'fleet-update-1.2.0-c'],
  ]);
  assert.deepEqual(posts[0].request.body, UPDATE);
  assert.deepEqual(lines.filter((l) => l.startsWith('wave')), ['wave of 1: a', 'wave of 1: b', 'wave of 1: c']);
  assert.ok(lines.includes('a succeeded'));
});

test('a rolled-back device fails its wave and, over --max-failures, the rollout stops before the next', async () => {
  const { deps, requests, lines } = devices({
    a: { post: accepted('a'), phases: ['rebooting', 'rolled-back'] },
    b: { post: accepted('b'), phases: ['succeeded'] },
  });
  const result = await rollOut(deps, ['a', 'b'], UPDATE, OPTIONS);
  assert.deepEqual(result, { succeeded: [], failed: ['a'], notUpdated: ['b'] });
  assert.ok(!requests.some((r) => r.device === 'b'), 'b was never asked');
  assert.ok(lines.includes('a rolled-back: the new slot was not ready'));
  assert.match(lines.at(-1)!, /^stopped: 1 failed, more than --max-failures 0; not updated: b$/);
});

test('a refusal and a device that never ends count as failures; within --max-failures the next wave goes on', async () => {
  const { deps, lines } = devices({
    a: { post: { status: 409, body: { result: { content: { message: 'version 1.2.0 is not newer than 1.2.0' } } } }, phases: [] },
    b: { post: accepted('b'), phases: [null] },
    c: { post: accepted('c'), phases: ['succeeded'] },
  });
  const result = await rollOut(deps, ['a', 'b', 'c'], UPDATE, { ...OPTIONS, waves: '2,100%', maxFailures: 2 });
  assert.deepEqual(result, { succeeded: ['c'], failed: ['a', 'b'], notUpdated: [] });
  assert.ok(lines.includes('a refused: 409 version 1.2.0 is not newer than 1.2.0'));
  assert.ok(lines.some((l) => /^b failed: no end of update u-b within 60 s$/.test(l)));
});
