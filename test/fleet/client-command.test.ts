// `printproxyd fleet …` as a user runs it (a child process of src/main.ts) against a real Mosquitto and a stub device.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DeviceStub, StubAnswer } from '../fixtures/fleet-device-stub';
import { tempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';
import { startFleetCli, type FleetCli, type FleetRun } from './fleet-cli-harness';

const MAIN = resolve(__dirname, '..', '..', 'src', 'main.ts');
const files = tempDir('fleet-cli-files');
let cli: FleetCli;
before(async () => {
  cli = await startFleetCli();
});
after(() => cli.stop());

function fleet(...args: string[]): FleetRun {
  return cli.run(...args);
}

function stub(deviceId: string, answer?: StubAnswer): Promise<DeviceStub> {
  return cli.stub(deviceId, answer);
}

test('devices prints every device from its retained status, as a table and as JSON', async () => {
  const device = await stub('cli-a');
  await device.publish('status', { online: true, epoch: 3, bootId: 'b', version: '0.1.0', since: '2026-11-26T10:00:00Z' }, true);
  const run = fleet('devices');
  assert.equal(await run.done, 0, run.err());
  assert.match(run.out(), /^DEVICE\s+STATE\s+EPOCH\s+VERSION\s+SINCE$/m);
  assert.match(run.out(), /^cli-a\s+online\s+3\s+0\.1\.0\s+2026-11-26T10:00:00Z$/m);
  const json = fleet('--json', 'devices');
  assert.equal(await json.done, 0, json.err());
  assert.equal(JSON.parse(json.out()).find((d: { deviceId: string }) => d.deviceId === 'cli-a').epoch, 3);
});

test('printers prints the device\'s retained printer list', async () => {
  const device = await stub('cli-b');
  await device.publish('printers', [{ path: 'tcp-192-168-1-50-9100', name: 'Dock ZT410', status: 'online', tags: ['shipping'] }], true);
  const run = fleet('printers', 'cli-b');
  assert.equal(await run.done, 0, run.err());
  assert.match(run.out(), /^tcp-192-168-1-50-9100\s+Dock ZT410\s+online\s+shipping$/m);
});

test('print sends the ZPL file with an idempotency key and prints the answer', async () => {
  const device = await stub('cli-c', () => ({ status: 201, body: { result: { jobId: 'j-9', state: 'queued' } } }));
  const file = join(files, 'label.zpl');
  writeFileSync(file, '^XA^FO50,50^FDhello^FS^XZ');
  const run = fleet('print', 'cli-c', 'tag_shipping', file, '--no-wait', '--idempotency-key', 'order-77');
  assert.equal(await run.done, 0, run.err());
  assert.equal(JSON.parse(run.out()).result.jobId, 'j-9');
  const req = device.requests[0];
  assert.equal(req.method, 'POST');
  assert.equal(req.path, '/print/tag_shipping');
  assert.equal(req.headers['Idempotency-Key'], 'order-77');
  assert.deepEqual(req.body, { contentType: 'zpl', content: '^XA^FO50,50^FDhello^FS^XZ', wait: false, title: 'label.zpl', source: 'printproxyd fleet' });
});

test('job asks GET /jobs/<id>; an error answer exits 1 with the status', async () => {
  const device = await stub('cli-d', () => ({ status: 404, body: { result: { code: 'JOB_NOT_FOUND' } } }));
  const run = fleet('job', 'cli-d', 'j-404');
  assert.equal(await run.done, 1);
  assert.equal(device.requests[0].path, '/jobs/j-404');
  assert.match(run.err(), /answered 404/);
});

test('watch prints the events of one device as JSON lines until interrupted', async () => {
  const a = await stub('cli-e');
  const b = await stub('cli-f');
  const run = fleet('watch', 'cli-e');
  // the command subscribes after connecting: publish until the first event shows
  await until('an event of cli-e printed', async () => {
    await b.publish('events/job.state', { id: 1, type: 'job.state', bootId: 'x' });
    await a.publish('events/job.state', { id: 2, type: 'job.state', bootId: 'y' });
    return run.out().includes('"deviceId":"cli-e"');
  }, 20_000);
  run.child.kill('SIGINT');
  assert.equal(await run.done, 0, run.err());
  const lines = run.out().trim().split('\n').map((l) => JSON.parse(l));
  assert.ok(lines.every((l) => l.deviceId === 'cli-e'));
  assert.deepEqual(lines.find((l) => l.type === 'job.state').event, { id: 2, type: 'job.state', bootId: 'y' });
});

test('a bad command line exits 2 with the usage; an unreachable broker exits 1', async () => {
  const bad = fleet('print', 'only-one-arg');
  assert.equal(await bad.done, 2);
  assert.match(bad.err(), /usage: printproxyd fleet/);
  const dead = spawn(process.execPath, ['--import', 'tsx', MAIN, 'fleet', '--broker', 'mqtt://127.0.0.1:1', 'devices']);
  let err = '';
  dead.stderr.on('data', (d) => (err += d));
  const code = await new Promise((r) => dead.on('close', r));
  assert.equal(code, 1);
  assert.match(err, /cannot connect to mqtt:\/\/127\.0\.0\.1:1/);
});

