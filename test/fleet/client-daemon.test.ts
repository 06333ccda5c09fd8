// The fleet-side library and `printproxyd fleet` against the real daemon (its bridge), a real Mosquitto and the ZPL
// emulator: the device listed from its birth, its printers, a print answered and printed once, its events, its death.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Broker } from '../fixtures/mosquitto-broker';
import type { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import type { DaemonHandle } from '../helpers/daemon-process';
import { tempDir } from '../helpers/temp-dir';
import { until, valueWithin } from '../helpers/until';
import type { FleetClient, FleetEvent } from '../../src/fleet/client';
import { printedMarkers, startClientBench, stopClientBench } from './bridge-harness';

const DEVICE = 'cli-dev';
const MAIN = resolve(__dirname, '..', '..', 'src', 'main.ts');
let broker: Broker;
let emulator: ZplPrinterEmulator;
let daemon: DaemonHandle;
let printer: string;
let fleet: FleetClient;

before(async () => {
  ({ broker, emulator, daemon, printer, fleet } = await startClientBench(DEVICE));
});
after(() => stopClientBench({ fleet, daemon, emulator, broker }));

/** Runs `printproxyd fleet ARGS` as the `fleet` identity; resolves with exit status and output. */
function cli(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const files = tempDir('fleet-cli-daemon');
  const id = broker.cert('fleet');
  writeFileSync(join(files, 'ca.pem'), broker.ca);
  writeFileSync(join(files, 'fleet.pem'), id.cert);
  writeFileSync(join(files, 'fleet.key'), id.key);
  const flags = ['--broker', broker.url, '--ca', join(files, 'ca.pem'), '--cert', join(files, 'fleet.pem'), '--key', join(files, 'fleet.key')];
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'fleet', ...flags, ...args]);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((done) => child.on('close', (code) => done({ code, out, err })));
}

test('the device is listed from its birth, with its printers, by the library and by the command line', async () => {
  const device = await valueWithin('the device listed', 10_000, () => fleet.device(DEVICE));
  assert.equal(device.online, true);
  assert.ok(device.epoch >= 1);
  assert.match(device.since ?? '', /^\d{4}-\d\d-\d\dT/);
  const printers = await valueWithin('the printer list with the emulator', 10_000, () => (fleet.printers(DEVICE) as Array<{ path: string }> | null)?.some((p) => p.path === printer));
  assert.equal(printers, true);
  const devices = await cli('devices');
  assert.equal(devices.code, 0, devices.err);
  assert.match(devices.out, new RegExp(`^${DEVICE}\\s+online\\s+${device.epoch}\\s`, 'm'));
  const list = await cli('--json', 'printers', DEVICE);
  assert.equal(list.code, 0, list.err);
  assert.ok(JSON.parse(list.out).some((p: { path: string }) => p.path === printer));
});

test('a print through the library is answered 201 (wait: false), printed once, and its job.state events arrive', async () => {
  const events: FleetEvent[] = [];
  const stop = await fleet.events(DEVICE, (e) => events.push(e));
  const body = { contentType: 'zpl', content: '^XA^FDfleet-lib-1^FS^XZ', wait: false };
  const answer = await fleet.request(DEVICE, { method: 'POST', path: `/print/${printer}`, headers: { 'Idempotency-Key': 'lib-order-1' }, body }, { deadlineMs: 20_000 });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  const jobId = (answer.body as { result: { content: { jobId: string } } }).result.content.jobId;
  const jobState = (e: FleetEvent) => (e.type === 'job.state' ? (e.event.data as { jobId: string; state: string }) : null);
  await until('the job completed event', () => events.some((e) => jobState(e)?.jobId === jobId && jobState(e)?.state === 'completed'), 20_000);
  const again = await fleet.request(DEVICE, { method: 'POST', path: `/print/${printer}`, headers: { 'Idempotency-Key': 'lib-order-1' }, body }, { deadlineMs: 20_000 });
  assert.deepEqual([again.status, again.body], [answer.status, answer.body]);
  assert.equal(printedMarkers(emulator).get('fleet-lib-1'), 1);
  assert.ok(events.every((e) => e.deviceId === DEVICE && typeof e.event.bootId === 'string'));
  await stop();
});

test('print and job on the command line through the real device', async () => {
  const file = join(tempDir('fleet-cli-label'), 'label.zpl');
  writeFileSync(file, '^XA^FDfleet-cli-1^FS^XZ');
  const printed = await cli('print', DEVICE, printer, file);
  assert.equal(printed.code, 0, printed.err);
  const job = JSON.parse(printed.out).result.content;
  assert.equal(job.state, 'completed');
  assert.equal(printedMarkers(emulator).get('fleet-cli-1'), 1);
  const record = await cli('job', DEVICE, job.jobId);
  assert.equal(record.code, 0, record.err);
  assert.equal(JSON.parse(record.out).result.content.jobId, job.jobId);
  const missing = await cli('job', DEVICE, 'no-such-job');
  assert.equal(missing.code, 1);
  assert.match(missing.err, /answered 404/);
});

test('a clean stop of the device shows it offline with the epoch of its birth', async () => {
  const epoch = fleet.device(DEVICE)!.epoch;
  await daemon.stop();
  const gone = await valueWithin('the device offline', 20_000, () => (fleet.device(DEVICE)?.online === false ? fleet.device(DEVICE) : null));
  assert.equal(gone.epoch, epoch);
});
