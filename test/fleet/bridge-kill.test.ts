// SIGKILL of the daemon: the broker publishes the Will (online: false, same epoch) within 1.5 x keepalive; a request
// published while the device is down is printed exactly once after it restarts; the new birth has a higher epoch.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startBroker, type Broker } from '../fixtures/mosquitto-broker';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import type { DaemonHandle } from '../helpers/daemon-process';
import { until, valueWithin } from '../helpers/until';
import { addZplPrinter, printedMarkers, record, startDevice, type Recorder } from './bridge-harness';

const DEVICE = 'dev-k';
const P = `printproxy/v1/${DEVICE}`;
const KEEPALIVE_SEC = 5;
let broker: Broker;
let emulator: ZplPrinterEmulator;
let daemon: DaemonHandle | null = null;
let fleet: Recorder;
let port: number;

before(async () => {
  broker = await startBroker();
  emulator = new ZplPrinterEmulator();
  port = await emulator.start();
  fleet = await record(broker);
});
after(async () => {
  await daemon?.stop();
  await fleet?.end();
  await emulator?.stop();
  await broker?.stop();
});

test('SIGKILL: Will within 1.5 x keepalive; a request sent while down prints once after the restart; the new birth has a higher epoch', async () => {
  daemon = await startDevice(broker, DEVICE);
  const printer = await addZplPrinter(daemon, emulator, port);
  const birth = await valueWithin('birth', 10_000, () => fleet.json(`${P}/status`).find((s) => s.online === true));
  const dataDir = daemon.dataDir;
  const killedAt = Date.now();
  await daemon.stop('SIGKILL');
  daemon = null;
  const will = await valueWithin('the Will', 1.5 * KEEPALIVE_SEC * 1000, () => fleet.json(`${P}/status`).find((s) => s.online === false));
  console.log(`Will published ${Date.now() - killedAt} ms after SIGKILL (keepalive ${KEEPALIVE_SEC} s)`);
  assert.deepEqual(will, { online: false, epoch: birth.epoch });
  await fleet.client.publishAsync(`${P}/req`, JSON.stringify({ id: 'while-down', method: 'POST', path: `/print/${printer}`, body: { contentType: 'zpl', content: '^XA^FDwhile-down^FS^XZ' } }), { qos: 1 });
  daemon = await startDevice(broker, DEVICE, { dataDir, join: false });
  const answer = await valueWithin('answer to the request sent while down', 30_000, () => fleet.json(`${P}/res`).find((a) => a.id === 'while-down'));
  assert.equal(answer.status, 200);
  const again = await valueWithin('second birth', 10_000, () => fleet.json(`${P}/status`).filter((s) => s.online === true).at(-1));
  assert.ok(again.epoch > birth.epoch, `epoch ${again.epoch} > ${birth.epoch}`);
  assert.notEqual(again.bootId, birth.bootId);
  // the broker may redeliver after a restart: the same request gets the stored answer and prints nothing
  await fleet.client.publishAsync(`${P}/req`, JSON.stringify({ id: 'while-down', method: 'POST', path: `/print/${printer}`, body: { contentType: 'zpl', content: '^XA^FDwhile-down^FS^XZ' } }), { qos: 1 });
  const replayed = await valueWithin('replayed answer', 20_000, () => fleet.json(`${P}/res`).filter((a) => a.id === 'while-down')[1]);
  assert.deepEqual(replayed, answer);
  // and after another restart: the de-duplication is on disk
  await daemon.stop('SIGKILL');
  daemon = await startDevice(broker, DEVICE, { dataDir, join: false });
  await fleet.client.publishAsync(`${P}/req`, JSON.stringify({ id: 'while-down', method: 'POST', path: `/print/${printer}`, body: { contentType: 'zpl', content: '^XA^FDwhile-down^FS^XZ' } }), { qos: 1 });
  const afterRestart = await valueWithin('answer replayed after a restart', 20_000, () => fleet.json(`${P}/res`).filter((a) => a.id === 'while-down')[2]);
  assert.deepEqual(afterRestart, answer);
  await fleet.client.publishAsync(`${P}/req`, JSON.stringify({ id: 'barrier', method: 'GET', path: '/status' }), { qos: 1 });
  await valueWithin('barrier', 20_000, () => fleet.json(`${P}/res`).find((a) => a.id === 'barrier'));
  assert.equal(printedMarkers(emulator).get('while-down'), 1);
});

test('a crash after the job was spooled but before its key reached the answer log: the redelivered request gets that job back and it prints once', async () => {
  const device = 'dev-k2';
  const P2 = `printproxy/v1/${device}`;
  await daemon?.stop();
  emulator.state.paused = true;
  daemon = await startDevice(broker, device);
  const printer = await addZplPrinter(daemon, emulator, port);
  const request = JSON.stringify({ id: 'gap', method: 'POST', path: `/print/${printer}`, body: { contentType: 'zpl', content: '^XA^FDgap^FS^XZ', wait: false } });
  await fleet.client.publishAsync(`${P2}/req`, request, { qos: 1 });
  const answer = await valueWithin('the answer', 20_000, () => fleet.json(`${P2}/res`).find((a) => a.id === 'gap'));
  const jobId = answer.body.result.content.jobId as string;
  assert.ok(jobId, JSON.stringify(answer));
  const dataDir = daemon.dataDir;
  // the answer goes out before its key is stored: wait for the key, then take it out after the kill
  const log = join(dataDir, 'fleet', 'answers.log');
  const keyed = () => existsSync(log) && readFileSync(log, 'utf8').split('\n').some((l) => l.includes('"id:gap"'));
  await until('the key is in the answer log', keyed, 20_000);
  await daemon.stop('SIGKILL');
  // the state such a crash leaves: the job in the spool, its key not in the answer log
  writeFileSync(log, readFileSync(log, 'utf8').split('\n').filter((l) => !l.includes('"id:gap"')).join('\n'));
  emulator.state.paused = false;
  daemon = await startDevice(broker, device, { dataDir, join: false });
  await fleet.client.publishAsync(`${P2}/req`, request, { qos: 1 });
  const again = await valueWithin('the answer to the redelivery', 20_000, () => fleet.json(`${P2}/res`).filter((a) => a.id === 'gap')[1]);
  assert.equal(again.body.result.content.jobId, jobId, 'the spooled job, not a new one');
  const d = daemon;
  await valueWithin('the job completes', 20_000, async () => (await d.api('GET', `/jobs/${jobId}`)).body.result?.content?.state === 'completed' || null);
  assert.equal(printedMarkers(emulator).get('gap'), 1);
});
