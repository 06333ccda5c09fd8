// The update routes against the real daemon (first in this process, for its event bus; after the "reboot" in a process of
// its own: two in-process daemons crash node at exit), a fake rauc (--rauc) and a local bundle server: each refusal with
// its status and check, 507 from statfs, a URL update, 409 while one runs, idempotency keys, reboot to the helper's
// FIFO, rollback refused meanwhile, system.update events, the first start after the reboot, an upload streamed and
// checked before the 202, PUT /settings/updates; and the fleet's routes refused over MQTT.
import { after, before, test } from 'node:test';
import { inPlace } from '../../../src/system/bundle-seal';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IPublishPacket } from 'mqtt';
import type { DeviceEvent } from '../../../src/events/event-bus';
import { ApiDispatcher, type CallAnswer } from '../../../src/http/api-dispatch';
import { RequestRunner } from '../../../src/fleet/request-runner';
import { fleetTopics } from '../../../src/fleet/fleet-topics';
import { silentLogger } from '../../../src/log';
import { execRunner } from '../../../src/device/netbird-status';
import { spawnLines } from '../../../src/system/line-runner';
import { RaucClient } from '../../../src/system/rauc-client';
import { RaucStatus } from '../../../src/system/rauc-status';
import { UpdateManager } from '../../../src/system/update-manager';
import { UpdateStore } from '../../../src/system/update-store';
import { startBundleServer, type BundleServer } from '../../fixtures/bundle-server';
import { FakeRauc } from '../../fixtures/fake-rauc';
import { FakeUsbBus } from '../../fixtures/fake-usb';
import { startDaemon } from '../../helpers/daemon-process';
import { startInProcess, type InProcessDaemon } from '../../helpers/in-process-daemon';
import { tempDir } from '../../helpers/temp-dir';
import { until, valueWithin } from '../../helpers/until';
import { verityBundle } from '../../fixtures/verity-bundle';

const BUNDLE = verityBundle();
const SHA = createHash('sha256').update(BUNDLE).digest('hex');
const dataDir = tempDir('update-daemon');
const requests = join(tempDir('helper'), 'system-requests');
const gate = join(tempDir('gate'), 'gate-failure');
const rauc = new FakeRauc();
let d: InProcessDaemon;
let server: BundleServer;
const events: DeviceEvent[] = [];

const start = async () => {
  d = await startInProcess({ usb: () => new FakeUsbBus() }, dataDir, false, false, { PRINTPROXY_RAUC: rauc.command, PRINTPROXY_SYSTEM_REQUESTS: requests, PRINTPROXY_GATE_REPORT: gate });
  d.events.subscribe((event) => events.push(event));
};

before(async () => {
  writeFileSync(requests, '');
  server = await startBundleServer(BUNDLE);
  await start();
});
after(async () => {
  await d.stop();
  await server.close();
});

const upload = (query: string, bytes: Buffer = BUNDLE, headers: Record<string, string> = {}) => d.api('POST', `/system/update?${query}`, { raw: bytes, headers });
const update = async () => (await d.api('GET', '/system/update')).body.result.content;

test('a bundle refused before the 202 answers with the check it failed, and nothing is installed', async () => {
  const sha = await upload(`version=2.0.0&sha256=${'0'.repeat(64)}`);
  assert.equal(sha.status, 422, JSON.stringify(sha.body));
  assert.equal(sha.body.result.message, 'Update bundle refused');
  assert.equal(sha.body.result.content.check, 'sha256');
  assert.equal((await update()).phase, 'failed');

  rauc.fail('info', 'signature verification failed: unable to get local issuer certificate');
  const signature = await upload('version=2.0.0');
  assert.deepEqual([signature.status, signature.body.result.content.check], [422, 'signature']);
  assert.match(signature.body.result.content.message, /unable to get local issuer certificate/);
  rauc.fail('info', null);

  rauc.setInfo('2.0.0', 'printproxy-qemu-aarch64');
  const compatible = await upload('version=2.0.0');
  assert.deepEqual([compatible.status, compatible.body.result.content.check], [422, 'compatible']);
  rauc.setInfo('2.1.0');
  const version = await upload('version=2.0.0');
  assert.deepEqual([version.status, version.body.result.content.check], [422, 'version']);

  const downgrade = await upload('version=0.9.0');
  assert.deepEqual([downgrade.status, downgrade.body.result.message, downgrade.body.result.content.check], [409, 'Not newer than the installed version', 'downgrade']);
  const same = await d.api('POST', '/system/update', { body: { url: server.url, sha256: SHA, size: BUNDLE.length, version: '1.0.0' } });
  assert.equal(same.status, 409, 'the same version is no update either');

  const bad = await d.api('POST', '/system/update', { body: { url: server.url, sha256: SHA, size: BUNDLE.length, version: '2.0.0', reboot: 'later' } });
  assert.equal(bad.status, 400);
  assert.match(bad.body.result.content.message, /^reboot/);
  assert.equal(rauc.callsOf('install').length, 0);
});

test('507 naming the space check when the data partition lacks the room (statfs, before a byte is stored)', async () => {
  // uWS takes at most 999999999 as a Content-Length, less than this disk has free: the partition's free bytes come from a fake statfs here
  const { systemRoutes } = await import('../../../src/http/routes/system');
  const manager = new UpdateManager({
    store: new UpdateStore(join(tempDir('full'), 'system')), rauc: new RaucClient({ command: rauc.command, run: execRunner, runLines: spawnLines, timeoutMs: 10_000 }),
    status: () => new RaucStatus({ command: rauc.command, run: execRunner, timeoutMs: 10_000 }).read(), freeBytes: async () => 1024 * 1024,
    requestReboot: async () => undefined, sealBundle: inPlace, gateReport: async () => null, trialSlot: async () => null, jobsIdle: () => true, emit: () => undefined, version: '0.0.1', logger: silentLogger, now: Date.now,
    pollMs: 5, progressEveryMs: 0, goodWaitMs: 1000, idleWaitMs: 1000, rebootWaitMs: 60_000, downloadRetryMs: 0,
  });
  manager.resume();
  const dispatcher = new ApiDispatcher(systemRoutes({ read: async () => ({ bootSlot: null, slots: [], update: null }), updates: manager, fromFleet: () => false }), silentLogger);
  const call = dispatcher.resolve('POST', '/system/update');
  const answer = await dispatcher.execute(call, { headers: {}, body: { url: server.url, sha256: SHA, size: BUNDLE.length, version: '2.0.0' }, remoteAddress: '127.0.0.1', signal: new AbortController().signal });
  const body = answer.body as { result: { message: string; content: { check: string; message: string } } };
  assert.deepEqual([answer.status, body.result.message, body.result.content.check], [507, 'Device cannot store the bundle', 'space']);
  assert.match(body.result.content.message, /^space: the bundle needs \d+ bytes/);
  assert.equal(manager.current, null, 'nothing started');
});

test('a URL update: 202, events at each phase, 409 while it runs, the key answers it again, rollback refused, reboot written to the helper', async () => {
  rauc.setInfo('2.0.0');
  rauc.afterInstall({ booted: 'A', versions: { A: '1.0.0', B: '2.0.0' }, good: { A: true, B: null } });
  const seen = events.length;
  const body = { url: server.url, sha256: SHA, size: BUNDLE.length, version: '2.0.0', reboot: 'manual' };
  const res = await d.api('POST', '/system/update', { body, headers: { 'Idempotency-Key': 'fleet-1' } });
  assert.equal(res.status, 202, JSON.stringify(res.body));
  const id = res.body.result.content.id;
  assert.deepEqual([res.body.result.content.phase, res.body.result.content.from, res.body.result.content.to], ['downloading', '1.0.0', '2.0.0']);
  await until('awaiting-reboot', async () => (await update()).phase === 'awaiting-reboot');
  const busy = await d.api('POST', '/system/update', { body: { ...body, version: '3.0.0' } });
  assert.deepEqual([busy.status, busy.body.result.message], [409, 'An update is running']);
  const again = await d.api('POST', '/system/update', { body, headers: { 'Idempotency-Key': 'fleet-1' } });
  assert.deepEqual([again.status, again.body.result.message, again.body.result.content.id], [200, 'Existing update returned.', id]);
  const uploadAgain = await upload('version=2.0.0', BUNDLE, { 'Idempotency-Key': 'fleet-1' });
  assert.deepEqual([uploadAgain.status, uploadAgain.body.result.content.id], [200, id], 'the key answers an upload too, its body dropped');
  assert.equal(rauc.callsOf('install').length, 1);
  assert.equal((await d.api('POST', '/system/rollback')).status, 409);

  const system = (await d.api('GET', '/system')).body.result.content;
  assert.deepEqual(system.update, await update());
  assert.equal(system.update.targetSlot, 'B');
  const reboot = await d.api('POST', '/system/reboot');
  assert.equal(reboot.status, 202);
  assert.equal(readFileSync(requests, 'utf8'), 'reboot\n');
  assert.equal((await update()).phase, 'rebooting');
  const mine = events.slice(seen).filter((e) => e.type === 'system.update' && (e.data as { id: string }).id === id).map((e) => (e.data as { phase: string }).phase);
  assert.deepEqual(mine.filter((p, i) => i === 0 || mine[i - 1] !== p), ['downloading', 'verifying', 'installing', 'awaiting-reboot', 'rebooting']);
});

test('over MQTT: the URL form only with updates.fromFleet, never allowDowngrade; reboot, rollback and the setting itself are 403', async () => {
  let fromFleet = false;
  const { systemRoutes } = await import('../../../src/http/routes/system');
  const { settingsRoutes } = await import('../../../src/http/routes/settings');
  const calls: string[] = [];
  const keys: Array<string | null> = [];
  const updates = { current: null, requestUrl: async (_req: unknown, key: string | null) => (calls.push('update'), keys.push(key), { update: { id: 'u' }, replay: false }), reboot: async () => void calls.push('reboot'), rollback: async () => void calls.push('rollback') };
  const routes = [
    ...systemRoutes({ read: async () => ({ bootSlot: null, slots: [], update: null }), updates: updates as never, fromFleet: () => fromFleet }),
    ...settingsRoutes({ settings: { value: {}, update: async () => calls.push('settings') } as never, registry: { list: () => [] } as never }),
  ];
  const answers: CallAnswer[] = [];
  const runner = new RequestRunner({
    dispatcher: new ApiDispatcher(routes, silentLogger), answers: {} as never, jobAnswers: {} as never,
    settings: () => ({ inlineMaxBytes: 131072 }) as never, topics: () => fleetTopics('printproxy/v1', 'dev'), maxBodyBytes: () => 1 << 20,
    send: (_route, answer) => answers.push(answer), logger: silentLogger, now: Date.now,
  });
  const ask = async (method: string, path: string, body?: unknown): Promise<CallAnswer> => {
    const before = answers.length;
    const packet = { topic: 'printproxy/v1/dev/req', payload: Buffer.from(JSON.stringify({ id: `r${before}`, method, path, body })), properties: {} } as unknown as IPublishPacket;
    await new Promise<void>((resolve) => runner.handle(packet, () => resolve()));
    return answers[before];
  };
  const request = { url: 'https://releases.example/b.raucb', sha256: SHA, size: 10, version: '9.0.0' };
  const off = await ask('POST', '/system/update', request);
  assert.equal(off.status, 403);
  assert.match(JSON.stringify(off.body), /updates\.fromFleet is off/);
  fromFleet = true;
  assert.equal((await ask('POST', '/system/update', request)).status, 202);
  const downgrade = await ask('POST', '/system/update', { ...request, allowDowngrade: true });
  assert.equal(downgrade.status, 403);
  assert.match(JSON.stringify(downgrade.body), /downgrade is never allowed over MQTT/);
  assert.equal((await ask('POST', '/system/reboot')).status, 403);
  assert.equal((await ask('POST', '/system/rollback')).status, 403);
  assert.equal((await ask('PUT', '/settings/updates', { fromFleet: true })).status, 403);
  assert.equal((await ask('GET', '/system/update')).status, 200);
  assert.deepEqual(calls, ['update'], 'only the allowed request reached the manager');
  assert.deepEqual(keys, ['fleet-id:r1'], 'a request without Idempotency-Key is keyed by its id: the broker delivering it again is the same update');
});

test('the first start after the reboot: the target slot booted and good makes it succeeded; then an 8 MiB bundle uploaded past a 64 KiB body limit is streamed, checked, installed', async () => {
  await d.stop();
  rauc.setSlots({ booted: 'B', versions: { A: '1.0.0', B: '2.0.0' }, good: { A: true, B: true } });
  rauc.afterInstall({ booted: 'B', versions: { A: '3.0.0', B: '2.0.0' }, good: { A: null, B: true } });
  const p = await startDaemon({ dataDir, args: ['--rauc', rauc.command, '--system-requests', requests, '--gate-report', gate] });
  try {
    const current = async () => (await p.api('GET', '/system/update')).body.result.content;
    const done = await valueWithin('succeeded', 10_000, async () => ((await current()).phase === 'succeeded' ? current() : null));
    assert.deepEqual([done.from, done.to, done.error], ['1.0.0', '2.0.0', null]);

    // 8 MiB through a body limit of 64 KiB: the bundle goes to disk as it comes, past maxBodyBytes and the memory budget
    assert.equal((await p.api('PUT', '/settings', { body: { maxBodyBytes: 65536 } })).status, 200);
    const big = verityBundle({ blocks: 2048, version: '3.0.0' });
    const bigSha = createHash('sha256').update(big).digest('hex');
    rauc.setInfo('3.0.0');
    const res = await p.api('POST', `/system/update?version=3.0.0&sha256=${bigSha}&reboot=manual`, { raw: big });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.deepEqual([res.body.result.content.from, res.body.result.content.to], ['2.0.0', '3.0.0']);
    await until('awaiting-reboot', async () => (await current()).phase === 'awaiting-reboot');
    assert.equal((await current()).targetSlot, 'A');
    assert.equal(rauc.callsOf('install').length, 2);

    assert.equal((await p.api('GET', '/settings')).body.result.content.updates.fromFleet, false);
    const put = await p.api('PUT', '/settings/updates', { body: { fromFleet: true } });
    assert.deepEqual([put.status, put.body.result.content], [200, { fromFleet: true }]);
    assert.equal((await p.api('GET', '/settings')).body.result.content.updates.fromFleet, true);
    const doc = (await p.api('GET', '/openapi.json', { key: null })).body;
    assert.ok(doc.paths['/system/update'].post.requestBody.content['application/octet-stream']);
  } finally {
    await p.stop();
  }
});
