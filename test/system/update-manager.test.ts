// The update state machine against a fake rauc executable and a local bundle server: the phases and their record on disk,
// every refusal (before the 202 and after it), idempotency across a restart, the first start after the reboot, a resumed
// download, the reboot request, rollback, and the events.
import { test } from 'node:test';
import { inPlace } from '../../src/system/bundle-seal';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { AppError } from '../../src/errors';
import { execRunner } from '../../src/device/netbird-status';
import { silentLogger } from '../../src/log';
import type { UpdateRecord, UpdateRequest } from '../../src/schemas/system';
import { gateReportFile, trialSlotFile } from '../../src/system/gate-report';
import { spawnLines } from '../../src/system/line-runner';
import { RaucClient } from '../../src/system/rauc-client';
import { RaucStatus } from '../../src/system/rauc-status';
import { fifoRebootRequest } from '../../src/system/reboot-request';
import { UpdateManager } from '../../src/system/update-manager';
import { UpdateStore } from '../../src/system/update-store';
import { startBundleServer } from '../fixtures/bundle-server';
import { FakeRauc } from '../fixtures/fake-rauc';
import { verityBundle } from '../fixtures/verity-bundle';
import { tempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';

const BUNDLE = verityBundle();
const SHA = createHash('sha256').update(BUNDLE).digest('hex');
const GiB = 1024 ** 3;

/** A manager on `dataDir` with the fake, its reboot requests going to a plain file; `free` bytes on the partition. */
function harness(options: { rauc?: FakeRauc; dataDir?: string; free?: number; idle?: () => boolean; rebootWaitMs?: number } = {}) {
  const rauc = options.rauc ?? new FakeRauc();
  const dataDir = options.dataDir ?? tempDir('update-data');
  const rebootFile = join(dataDir, 'system-requests');
  if (!existsSync(rebootFile)) writeFileSync(rebootFile, '');
  const gateFile = join(dataDir, 'gate-failure');
  const trialFile = join(dataDir, 'trial');
  const events: UpdateRecord[] = [];
  const status = new RaucStatus({ command: rauc.command, run: execRunner, timeoutMs: 10_000 });
  const manager = new UpdateManager({
    store: new UpdateStore(join(dataDir, 'system')),
    rauc: new RaucClient({ command: rauc.command, run: execRunner, runLines: spawnLines, timeoutMs: 10_000 }),
    status: () => status.read(),
    freeBytes: async () => options.free ?? 10 * GiB,
    requestReboot: fifoRebootRequest(rebootFile), sealBundle: inPlace,
    gateReport: gateReportFile(gateFile),
    trialSlot: trialSlotFile(trialFile),
    jobsIdle: options.idle ?? (() => true),
    emit: (record) => events.push({ ...record }),
    version: '0.0.1',
    logger: silentLogger,
    now: Date.now,
    pollMs: 5,
    progressEveryMs: 0,
    goodWaitMs: 10_000,
    idleWaitMs: 10_000,
    rebootWaitMs: options.rebootWaitMs ?? 60_000,
    downloadRetryMs: 0,
  });
  manager.resume();
  const onDisk = (): UpdateRecord | null => (existsSync(join(dataDir, 'system', 'update.json')) ? JSON.parse(readFileSync(join(dataDir, 'system', 'update.json'), 'utf8')) : null);
  const reboots = () => readFileSync(rebootFile, 'utf8');
  return { rauc, dataDir, manager, events, onDisk, reboots, gateFile, trialFile };
}

function request(url: string, extra: Partial<UpdateRequest> = {}): UpdateRequest {
  return { url, sha256: SHA, size: BUNDLE.length, version: '2.0.0', reboot: 'manual', ...extra };
}

const phases = (events: UpdateRecord[]) => events.map((e) => e.phase).filter((p, i, all) => i === 0 || all[i - 1] !== p);
const ended = (h: ReturnType<typeof harness>, phase: string) => until(`update ${phase}`, () => h.manager.current?.phase === phase);
const refusedWith = (code: string, check?: string) => (err: unknown) => err instanceof AppError && err.code === code && (check === undefined || (err.content as { check?: string }).check === check);

test('a URL update downloads, verifies, installs, writes rebooting with the target slot, then asks the helper to reboot', async () => {
  const server = await startBundleServer(BUNDLE);
  const h = harness();
  h.rauc.afterInstall({ booted: 'A', versions: { A: '1.0.0', B: '2.0.0' }, good: { A: true, B: null } });
  try {
    const { update, replay } = await h.manager.requestUrl(request(server.url, { reboot: 'now' }), 'k-1');
    assert.equal(replay, false);
    assert.deepEqual({ phase: update.phase, from: update.from, to: update.to, reboot: update.reboot, key: update.idempotencyKey }, { phase: 'downloading', from: '1.0.0', to: '2.0.0', reboot: 'now', key: 'k-1' });
    await ended(h, 'rebooting');
    await until('the reboot asked', () => h.reboots() === 'reboot\n');
    const record = h.onDisk()!;
    assert.equal(record.id, update.id);
    assert.equal(record.phase, 'rebooting');
    assert.equal(record.targetSlot, 'B');
    assert.deepEqual(phases(h.events), ['downloading', 'verifying', 'installing', 'awaiting-reboot', 'rebooting']);
    const installing = h.events.filter((e) => e.phase === 'installing').map((e) => e.progress);
    assert.deepEqual(installing, [0, 40, 80, 100].filter((p) => installing.includes(p)), 'install progress in order');
    assert.ok(installing.includes(80), `install progress events: ${installing.join(',')}`);
    assert.equal(h.rauc.callsOf('install').length, 1);
    assert.match(h.rauc.callsOf('info')[0], /^info --output-format=json .*\.raucb$/);
    assert.deepEqual(readdirSync(join(h.dataDir, 'system')).filter((n) => n.endsWith('.raucb') || n.endsWith('.part')), [], 'the bundle is removed after the install');
  } finally {
    await h.manager.stop();
    await server.close();
  }
});

test('a download cut halfway resumes with Range where it broke off', async () => {
  const server = await startBundleServer(BUNDLE);
  server.cutAfter = BUNDLE.length / 2;
  const h = harness();
  try {
    await h.manager.requestUrl(request(server.url), null);
    await ended(h, 'awaiting-reboot');
    assert.equal(server.ranges.length, 2, `requests: ${JSON.stringify(server.ranges)}`);
    assert.equal(server.ranges[0], '');
    const resumedAt = Number(/^bytes=(\d+)-$/.exec(server.ranges[1])?.[1]);
    assert.ok(resumedAt > 0 && resumedAt <= BUNDLE.length / 2, `resumed at ${server.ranges[1]}`);
    assert.equal(h.rauc.callsOf('install').length, 1);
    assert.equal(h.reboots(), '', 'manual: no reboot asked');
  } finally {
    await h.manager.stop();
    await server.close();
  }
});

test('refusals after the 202 end the update failed naming the check, and nothing is installed', async (t) => {
  const server = await startBundleServer(BUNDLE);
  t.after(() => server.close());
  const cases: Array<{ name: string; arrange: (rauc: FakeRauc) => void; req: Partial<UpdateRequest>; error: RegExp }> = [
    { name: 'sha256', arrange: () => undefined, req: { sha256: 'ab'.repeat(32) }, error: /^sha256: sha256 of the download is [0-9a-f]{64}, not (ab){32}$/ },
    { name: 'size', arrange: () => undefined, req: { size: BUNDLE.length + 1 }, error: /^size: the server's bundle is \d+ bytes, not \d+/ },
    { name: 'signature', arrange: (r) => r.fail('info', 'signature verification failed: Verify error:unable to get local issuer certificate'), req: {}, error: /^signature: rauc info refused the bundle: .*unable to get local issuer certificate/ },
    { name: 'compatible', arrange: (r) => r.setInfo('2.0.0', 'printproxy-rpi4'), req: {}, error: /^compatible: the bundle is for "printproxy-rpi4", this device is "printproxy-qemu-x86_64"$/ },
    { name: 'version', arrange: (r) => r.setInfo('2.1.0'), req: {}, error: /^version: the bundle's manifest says 2\.1\.0, the request 2\.0\.0$/ },
    { name: 'install', arrange: (r) => r.fail('install', 'Failed to check bundle payload: hash mismatch'), req: {}, error: /^install: .*hash mismatch/ },
  ];
  for (const c of cases) {
    const h = harness();
    c.arrange(h.rauc);
    try {
      const { update } = await h.manager.requestUrl(request(server.url, c.req), null);
      assert.equal(update.phase, 'downloading', c.name);
      await ended(h, 'failed');
      assert.match(h.manager.current!.error ?? '', c.error, c.name);
      assert.equal(h.onDisk()!.phase, 'failed', c.name);
      assert.equal(h.events.at(-1)!.phase, 'failed', c.name);
      assert.equal(h.rauc.callsOf('install').length, c.name === 'install' ? 1 : 0, `${c.name}: install calls`);
      assert.ok(!h.rauc.calls().some((call) => call.startsWith('status mark')), c.name);
    } finally {
      await h.manager.stop();
    }
  }
});

test('refusals before the 202: a downgrade or the same version 409, no room 507, one update at a time 409; allowDowngrade installs', async () => {
  const server = await startBundleServer(BUNDLE);
  const h = harness();
  try {
    await assert.rejects(h.manager.requestUrl(request(server.url, { version: '0.9.0' }), null), refusedWith('UPDATE_DOWNGRADE', 'downgrade'));
    await assert.rejects(h.manager.requestUrl(request(server.url, { version: '1.0.0' }), null), refusedWith('UPDATE_DOWNGRADE', 'downgrade'));
    const small = harness({ free: 1024 });
    await assert.rejects(small.manager.requestUrl(request(server.url), null), refusedWith('UPDATE_NO_ROOM', 'space'));
    assert.equal(small.manager.current, null, 'nothing started');
    h.rauc.setInfo('0.9.0');
    await h.manager.requestUrl(request(server.url, { version: '0.9.0', allowDowngrade: true }), null);
    await assert.rejects(h.manager.requestUrl(request(server.url), null), refusedWith('UPDATE_RUNNING'));
    await ended(h, 'awaiting-reboot');
    await assert.rejects(h.manager.requestUrl(request(server.url), 'other'), refusedWith('UPDATE_RUNNING'), 'awaiting its reboot still counts as running');
    assert.equal(h.rauc.callsOf('install').length, 1);
  } finally {
    await h.manager.stop();
    await server.close();
  }
});

test('an uploaded bundle is stored as it streams and checked before the answer; a bad one answers 422 naming the check', async () => {
  const h = harness();
  try {
    const bad = h.manager.upload(Readable.from([BUNDLE]), BUNDLE.length, { version: null, sha256: '00'.repeat(32), reboot: 'manual', allowDowngrade: false }, null);
    await assert.rejects(bad, refusedWith('BUNDLE_REFUSED', 'sha256'));
    assert.equal(h.manager.current!.phase, 'failed');
    const short = h.manager.upload(Readable.from([BUNDLE.subarray(0, 100)]), BUNDLE.length, { version: null, sha256: null, reboot: 'manual', allowDowngrade: false }, null);
    await assert.rejects(short, refusedWith('BUNDLE_REFUSED', 'size'));
    h.rauc.setInfo('0.5.0');
    await assert.rejects(h.manager.upload(Readable.from([BUNDLE]), BUNDLE.length, { version: null, sha256: null, reboot: 'manual', allowDowngrade: false }, null), refusedWith('UPDATE_DOWNGRADE', 'downgrade'), 'the manifest version is checked when the query has none');
    h.rauc.setInfo('2.0.0');
    const file = join(h.dataDir, 'bundle.raucb');
    writeFileSync(file, BUNDLE);
    const { update } = await h.manager.upload(createReadStream(file), BUNDLE.length, { version: null, sha256: SHA, reboot: 'manual', allowDowngrade: false }, null);
    assert.equal(update.to, '2.0.0', 'the manifest version');
    assert.equal(update.phase, 'installing', 'the answer comes once the checks passed: RAUC installs next');
    await ended(h, 'awaiting-reboot');
    assert.deepEqual(phases(h.events.filter((e) => e.id === update.id)), ['downloading', 'verifying', 'installing', 'awaiting-reboot'], 'the phases, in order');
    assert.equal(h.rauc.callsOf('install').length, 1);
  } finally {
    await h.manager.stop();
  }
});

test('idempotency keys survive a restart: the same key answers that update and installs nothing more; a failed update is not retried', async () => {
  const server = await startBundleServer(BUNDLE);
  const dataDir = tempDir('update-data');
  const rauc = new FakeRauc();
  const first = harness({ rauc, dataDir });
  try {
    const { update } = await first.manager.requestUrl(request(server.url), 'fleet-key-1');
    await ended(first, 'awaiting-reboot');
    await first.manager.stop();
    const second = harness({ rauc, dataDir });
    await until('resumed', () => second.manager.current?.phase === 'awaiting-reboot');
    const again = await second.manager.requestUrl(request(server.url), 'fleet-key-1');
    assert.equal(again.replay, true);
    assert.equal(again.update.id, update.id);
    assert.equal(rauc.callsOf('install').length, 1);
    await second.manager.stop();

    // an update interrupted mid-download fails at the next start and is never retried by itself
    const record = { ...second.manager.current!, id: 'interrupted', phase: 'downloading', idempotencyKey: null };
    writeFileSync(join(dataDir, 'system', 'update.json'), JSON.stringify(record));
    const third = harness({ rauc, dataDir });
    await ended(third, 'failed');
    assert.match(third.manager.current!.error!, /interrupted/);
    // the key of the update before it still answers with that update
    const old = await third.manager.requestUrl(request(server.url), 'fleet-key-1');
    assert.deepEqual([old.replay, old.update.id], [true, update.id]);
    assert.equal(rauc.callsOf('install').length, 1);
    await third.manager.stop();
  } finally {
    await server.close();
  }
});

test('the first start after the reboot: succeeded once RAUC has the target slot good; rolled-back with the gate\'s reason otherwise', async () => {
  const rebooting = (dataDir: string) => {
    const record: UpdateRecord = { id: 'u-1', phase: 'rebooting', progress: 100, from: '1.0.0', to: '2.0.0', error: null, targetSlot: 'B', idempotencyKey: null, reboot: 'now', startedAt: new Date().toISOString() };
    const dir = join(dataDir, 'system');
    execFileSync('mkdir', ['-p', dir]);
    writeFileSync(join(dir, 'update.json'), JSON.stringify(record));
  };
  // booted B, not yet good: waits; good but still on its trial boot (the gate has not passed it): waits; then succeeded
  const good = new FakeRauc({ booted: 'B', versions: { A: '1.0.0', B: '2.0.0' }, good: { A: true, B: null } });
  const d1 = tempDir('update-data');
  rebooting(d1);
  writeFileSync(join(d1, 'trial'), 'B\n');
  const h1 = harness({ rauc: good, dataDir: d1 });
  await until('status asked', () => good.callsOf('status').length >= 2);
  assert.equal(h1.manager.current!.phase, 'rebooting', 'not good yet');
  good.setSlots({ booted: 'B', versions: { A: '1.0.0', B: '2.0.0' }, good: { A: true, B: true } });
  const asked = good.callsOf('status').length;
  await until('status asked again with B good', () => good.callsOf('status').length >= asked + 2);
  assert.equal(h1.manager.current!.phase, 'rebooting', 'good to RAUC, but the gate has not passed the trial boot');
  rmSync(join(d1, 'trial'));
  await ended(h1, 'succeeded');
  assert.equal(h1.events.at(-1)!.phase, 'succeeded');
  await h1.manager.stop();

  // booted A again: rolled back, with the health gate's reason
  const back = new FakeRauc({ booted: 'A', versions: { A: '1.0.0', B: '2.0.0' }, good: { A: true, B: false } });
  const d2 = tempDir('update-data');
  rebooting(d2);
  writeFileSync(join(d2, 'gate-failure'), 'printprxyd did not answer /health/ready within 120 s\n');
  const h2 = harness({ rauc: back, dataDir: d2 });
  await ended(h2, 'rolled-back');
  assert.equal(h2.manager.current!.error, 'printprxyd did not answer /health/ready within 120 s');
  await h2.manager.stop();

  // no gate report: the new slot did not boot
  const d3 = tempDir('update-data');
  rebooting(d3);
  const h3 = harness({ rauc: back, dataDir: d3 });
  await ended(h3, 'rolled-back');
  assert.equal(h3.manager.current!.error, 'the new slot did not boot');
  assert.equal(h3.onDisk()!.phase, 'rolled-back');
  await h3.manager.stop();
});

test('reboot: an installed update goes to rebooting and `reboot` is written to the FIFO; no helper reading is 503', async () => {
  const server = await startBundleServer(BUNDLE);
  const h = harness();
  h.rauc.afterInstall({ booted: 'A', versions: { A: '1.0.0', B: '2.0.0' }, good: { A: true, B: null } });
  const fifo = join(tempDir('fifo'), 'system-requests');
  execFileSync('mkfifo', [fifo]);
  try {
    await h.manager.requestUrl(request(server.url, { reboot: 'manual' }), null);
    await ended(h, 'awaiting-reboot');
    // a manager whose helper is the FIFO: first without a reader
    const viaFifo = fifoRebootRequest(fifo);
    await assert.rejects(viaFifo(), refusedWith('REBOOT_FAILED'));
    const reader = createReadStream(fifo);
    const got = new Promise<string>((resolve) => reader.on('data', (chunk) => resolve(chunk.toString())));
    await until('reader open', async () => viaFifo().then(() => true, () => false));
    assert.equal(await got, 'reboot\n');
    reader.destroy();
    // the manager's own request (a plain file here) after rebooting is on disk
    await h.manager.reboot();
    assert.equal(h.onDisk()!.phase, 'rebooting');
    assert.equal(h.onDisk()!.targetSlot, 'B');
    assert.equal(h.reboots(), 'reboot\n');
  } finally {
    await h.manager.stop();
    await server.close();
  }
});

test('a reboot asked but not done within rebootWaitMs goes back to awaiting-reboot, naming it; asked again, it reboots', async () => {
  const server = await startBundleServer(BUNDLE);
  const h = harness({ rebootWaitMs: 50 });
  try {
    await h.manager.requestUrl(request(server.url, { reboot: 'now' }), null);
    // the helper took the request (the plain file), but nothing rebooted this process
    await until('back to awaiting-reboot', () => h.manager.current?.phase === 'awaiting-reboot' && /did not reboot/.test(h.manager.current.error ?? ''));
    assert.match(h.manager.current!.error!, /did not reboot within 1 minutes.*POST \/system\/reboot/);
    assert.deepEqual(phases(h.events).slice(-3), ['awaiting-reboot', 'rebooting', 'awaiting-reboot']);
    assert.equal(h.reboots(), 'reboot\n');
    assert.equal(h.onDisk()!.phase, 'awaiting-reboot', 'the record on disk says so too');
    await h.manager.reboot();
    assert.equal(h.onDisk()!.phase, 'rebooting');
    assert.equal(h.reboots(), 'reboot\nreboot\n');
  } finally {
    await h.manager.stop();
    await server.close();
  }
});

test('an idle reboot waits for the jobs to end', async () => {
  const server = await startBundleServer(BUNDLE);
  let idle = false;
  const h = harness({ idle: () => idle });
  try {
    await h.manager.requestUrl(request(server.url, { reboot: 'idle' }), null);
    await ended(h, 'awaiting-reboot');
    assert.equal(h.reboots(), '');
    idle = true;
    await ended(h, 'rebooting');
    await until('the reboot asked', () => h.reboots() === 'reboot\n');
  } finally {
    await h.manager.stop();
    await server.close();
  }
});

test('rollback: mark-active other when the other slot is good, then the reboot; 409 when it is not good', async () => {
  const h = harness();
  await h.manager.rollback();
  assert.ok(h.rauc.calls().includes('status mark-active other'));
  assert.equal(h.reboots(), 'reboot\n');
  h.rauc.setSlots({ booted: 'A', versions: { A: '1.0.0', B: '2.0.0' }, good: { A: true, B: false } });
  const fresh = harness({ rauc: h.rauc });
  await assert.rejects(fresh.manager.rollback(), refusedWith('ROLLBACK_REFUSED'));
  assert.equal(fresh.reboots(), '');
});
