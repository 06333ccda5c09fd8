// The fleet over MQTT (fleet.md), against one real Mosquitto with TLS client certificates:
//  1. N simulated devices (the real FleetBridge, many in this process, each before an in-memory printer) connect at
//     once: time until the fleet client has seen every birth (target <= 15 s for 1,000);
//  2. the broker is killed, left down, restarted: time until every device is back with a new birth (target <= 60 s),
//     and the reconnections per second;
//  3. a 2 KB ZPL job with wait: false through the real daemon: the fleet client's request until the device's answer,
//     p50/p99 at 50 and 500 jobs/s (targets at 50/s: p50 <= 5 ms, p99 <= 25 ms), against the same job over HTTP;
//  4. the daemon's RSS with the bridge off, then on and idle (target <= 8 MiB more);
//  5. its RSS over --minutes with the broker unreachable while events are emitted (target <= 2 MiB of growth: the
//     outbox is on disk).
// Run: npm run build && node --import tsx bench/fleet.ts [--devices 1000] [--seconds 10] [--minutes 10] [--down-seconds 5]
import { execSync, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync } from 'node:fs';
import http from 'node:http';
import mqtt, { type MqttClient } from 'mqtt';
import { join } from 'node:path';
import { startBroker, type Broker } from '../test/fixtures/mosquitto-broker';
import { ZplPrinterEmulator } from '../test/fixtures/zebra-tcp-printer';
import { startDaemon, type DaemonHandle } from '../test/helpers/daemon-process';
import { tempDir } from '../test/helpers/temp-dir';
import { FleetClient } from '../src/fleet/client';
import { prepareSimDevice, type SimDevice } from './fleet-sim-device';
import { median, rssMiB } from './process-memory';

const args = options(process.argv.slice(2));
const DEVICES = args.devices ?? 1000;
const SECONDS = args.seconds ?? 10;
const MINUTES = args.minutes ?? 10;
const DOWN_SECONDS = args['down-seconds'] ?? 5;
const FILES_NEEDED = 2 * DEVICES + 1024;
const LABEL = ('^XA^FO20,20^A0N,30,30^FD' + 'x'.repeat(2048) + '^FS^XZ').slice(0, 2048);
/** The daemons run with libuv's default thread pool, as on the device, whatever this process uses. */
const DAEMON_ENV = { UV_THREADPOOL_SIZE: '4' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (ms: number) => (ms / 1000).toFixed(1);

function options(argv: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, '');
    const value = Number(argv[i + 1]);
    if (!['devices', 'seconds', 'minutes', 'down-seconds'].includes(name) || !(value > 0)) throw new Error(`usage: bench/fleet.ts [--devices N] [--seconds S] [--minutes M] [--down-seconds S]; bad ${argv[i]}`);
    out[name] = value;
  }
  return out;
}

/** Threads for fs work: each simulated device stores its epoch on its own flash, so their fsyncs do not queue behind 4 threads. */
const THREADPOOL = 64;

/**
 * Re-runs this script under a raised open-file limit (N connections on both ends) and UV_THREADPOOL_SIZE=64; true when it
 * did (this process then only waits for that one).
 */
function relaunched(): boolean {
  if (process.env.FLEET_BENCH_RELAUNCHED) return false;
  const soft = Number(execSync('ulimit -n', { shell: '/bin/sh' }).toString().trim());
  const limit = Number.isNaN(soft) || soft >= FILES_NEEDED ? '' : `ulimit -n ${FILES_NEEDED} && `;
  console.log(`re-running with UV_THREADPOOL_SIZE=${THREADPOOL}${limit ? ` under ulimit -n ${FILES_NEEDED} (was ${soft})` : ''}`);
  const argv = [process.execPath, ...process.execArgv, ...process.argv.slice(1)].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const env = { ...process.env, FLEET_BENCH_RELAUNCHED: '1', UV_THREADPOOL_SIZE: String(THREADPOOL) };
  const run = spawnSync('/bin/sh', ['-c', `${limit}exec ${argv}`], { stdio: 'inherit', env });
  process.exitCode = run.status ?? 1;
  return true;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function fleetOf(broker: Broker): Promise<FleetClient> {
  const id = broker.cert('fleet');
  return FleetClient.connect({ url: broker.url, ca: broker.ca, cert: id.cert, key: id.key });
}

/** Waits until `done()` holds, printing `progress()` every second; resolves with the ms it took since `since`. */
async function watch(what: string, since: number, limitMs: number, done: () => boolean, progress: () => string): Promise<number> {
  let lastPrint = performance.now();
  while (!done()) {
    if (performance.now() - since > limitMs) throw new Error(`${what}: not within ${seconds(limitMs)} s (${progress()})`);
    await sleep(20);
    if (performance.now() - lastPrint >= 1000) {
      lastPrint = performance.now();
      console.log(`  ${seconds(performance.now() - since)} s: ${progress()}`);
    }
  }
  return performance.now() - since;
}

async function simulatedFleet(broker: Broker, fleet: FleetClient): Promise<SimDevice[]> {
  console.log(`\n## ${DEVICES} simulated devices (the real FleetBridge, in one process, mTLS to one Mosquitto)`);
  const made = performance.now();
  const ids = Array.from({ length: DEVICES }, (_, i) => `sim-${String(i).padStart(4, '0')}`);
  const devices: SimDevice[] = [];
  for (const [i, deviceId] of ids.entries()) {
    const id = broker.cert(deviceId);
    devices.push(await prepareSimDevice({ deviceId, dir: tempDir(`fleet-sim-${deviceId}`), brokerUrl: broker.url, ca: broker.ca, cert: id.cert, key: id.key }));
    if ((i + 1) % 200 === 0) console.log(`  prepared ${i + 1} (certificate, settings, files) in ${seconds(performance.now() - made)} s`);
  }
  const births = new Map<string, number>();
  const epochs = new Map<string, number>();
  fleet.onDevice((d) => {
    if ('removed' in d || !d.online || !d.deviceId.startsWith('sim-')) return;
    if (!births.has(d.deviceId)) births.set(d.deviceId, performance.now());
    epochs.set(d.deviceId, d.epoch);
  });
  const started = performance.now();
  for (const device of devices) device.start();
  const took = await watch('every birth', started, 120_000, () => births.size === DEVICES, () => `${births.size}/${DEVICES} births seen`);
  console.log(`every birth seen by the fleet client: ${seconds(took)} s for ${DEVICES} devices (target <= 15 s)`);

  console.log(`\n## the broker killed (SIGKILL), down ${DOWN_SECONDS} s, restarted`);
  const before = new Map(epochs);
  const back = new Map<string, number>();
  const stopWatching = fleet.onDevice((d) => {
    if ('removed' in d || !d.online || !before.has(d.deviceId)) return;
    if (d.epoch > before.get(d.deviceId)! && !back.has(d.deviceId)) back.set(d.deviceId, performance.now());
  });
  await broker.kill();
  await sleep(DOWN_SECONDS * 1000);
  const restarted = performance.now();
  const restartedWall = Date.now();
  await broker.restart();
  // each device's own view (its bridge connected again, with a higher epoch), sampled every 20 ms
  const reconnected = new Map<string, number>();
  const sample = setInterval(() => {
    for (const [i, device] of devices.entries()) {
      const id = ids[i];
      const status = device.bridge.status();
      if (!reconnected.has(id) && status.state === 'connected' && Date.parse(status.connectedSince ?? '') >= restartedWall) reconnected.set(id, performance.now());
    }
  }, 20);
  const tookBack = await watch('every device back', restarted, 300_000, () => back.size === DEVICES && reconnected.size === DEVICES, () => `${reconnected.size}/${DEVICES} devices connected again, ${back.size}/${DEVICES} new births seen by the fleet client`);
  clearInterval(sample);
  stopWatching();
  const lastDevice = Math.max(...reconnected.values()) - restarted;
  console.log(`every device connected again: ${seconds(lastDevice)} s after the restart began (target <= 60 s)`);
  console.log(`every new birth seen by the fleet client (itself reconnecting): ${seconds(tookBack)} s`);
  console.log(`devices connected per second after the restart: ${perSecond([...reconnected.values()], restarted).join(', ')}`);
  console.log(`new births seen per second by the fleet client: ${perSecond([...back.values()], restarted).join(', ')}`);
  return devices;
}

/** How many of `times` fall in each second after `since`. */
function perSecond(times: number[], since: number): number[] {
  const counts: number[] = [];
  for (const at of times) {
    const s = Math.floor((at - since) / 1000);
    counts[s] = (counts[s] ?? 0) + 1;
  }
  return Array.from(counts, (n) => n ?? 0);
}

/** Fires `fire` at `rate` per second for `secs` seconds (open loop); resolves with each call's ms and the failures. */
async function atRate(rate: number, secs: number, fire: () => Promise<void>): Promise<{ ms: number[]; failed: string }> {
  const total = Math.round(rate * secs);
  const ms: number[] = [];
  const reasons = new Map<string, number>();
  const pending: Array<Promise<void>> = [];
  const started = performance.now();
  for (let i = 0; i < total; i += 1) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 1) await sleep(wait);
    const t = performance.now();
    const fail = (err: Error) => void reasons.set(err.message.replace(/\(request .*$/, ''), (reasons.get(err.message.replace(/\(request .*$/, '')) ?? 0) + 1);
    pending.push(fire().then(() => void ms.push(performance.now() - t), fail));
  }
  await Promise.all(pending);
  return { ms, failed: reasons.size === 0 ? '0' : [...reasons].map(([why, n]) => `${n} (${why.trim()})`).join(', ') };
}

function httpPrint(d: DaemonHandle, agent: http.Agent, printer: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: d.port, method: 'POST', path: `/api/v1/print/${printer}`, agent, headers: { 'X-API-Key': d.apiKey, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 201 || res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function connected(d: DaemonHandle): Promise<void> {
  const t = performance.now();
  for (;;) {
    if ((await d.api('GET', '/status')).body.result.content.fleet?.state === 'connected') return;
    if (performance.now() - t > 30_000) throw new Error('the daemon did not connect to the broker within 30 s');
    await sleep(50);
  }
}

async function roundTrips(broker: Broker, fleet: FleetClient, entry: string | undefined): Promise<void> {
  console.log(`\n## a 2 KB ZPL job, wait: false, through the real daemon (${entry ?? 'src/main.ts (tsx)'}), ${SECONDS} s per rate`);
  const d = await startDaemon({ entry, env: DAEMON_ENV });
  const emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  const printer = added.body.result.content.path as string;
  const id = broker.cert('bench-dev');
  await d.api('PUT', '/fleet', { body: { enabled: true, brokerUrl: broker.url, deviceId: 'bench-dev', ca: broker.ca, cert: id.cert, key: id.key } });
  await connected(d);
  const body = { content: LABEL, contentType: 'zpl', wait: false };
  const json = JSON.stringify(body);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const mqttJob = () => fleet.request('bench-dev', { method: 'POST', path: `/print/${printer}`, body }, { deadlineMs: 30_000, retries: 0 }).then((a) => {
    if (a.status !== 201 && a.status !== 200) throw new Error(`answer ${a.status}`);
  });
  const httpJob = () => httpPrint(d, agent, printer, json);
  const floor = await bareResponder(broker, 'bench-floor');
  const floorJob = () => fleet.request('bench-floor', { method: 'POST', path: `/print/${printer}`, body }, { deadlineMs: 30_000, retries: 0 }).then(() => undefined);
  await atRate(50, 1, mqttJob);
  await atRate(50, 1, httpJob);
  console.log('| path | jobs/s | p50 ms | p99 ms | failed |');
  console.log('|---|---|---|---|---|');
  const p50s: Record<string, number> = {};
  for (const rate of [50, 500]) {
    const paths = [['MQTT (fleet client → broker → bridge → answer)', mqttJob], ['MQTT floor (a bare responder, no daemon)', floorJob], ['HTTP on loopback', httpJob]] as const;
    for (const [name, fire] of paths) {
      const { ms, failed } = await atRate(rate, SECONDS, fire);
      p50s[`${name}@${rate}`] = percentile(ms, 50);
      console.log(`| ${name} | ${rate} | ${percentile(ms, 50).toFixed(2)} | ${percentile(ms, 99).toFixed(2)} | ${failed} |`);
    }
  }
  for (const rate of [50, 500]) {
    const ratio = p50s[`MQTT (fleet client → broker → bridge → answer)@${rate}`] / p50s[`HTTP on loopback@${rate}`];
    console.log(`MQTT / HTTP at p50, ${rate} jobs/s: ${ratio.toFixed(2)}x`);
  }
  console.log('targets at 50 jobs/s over MQTT: p50 <= 5 ms, p99 <= 25 ms');
  agent.destroy();
  await floor.endAsync();
  await d.stop();
  await emulator.stop();
}

/** A device stand-in that answers every request at once (TCP_NODELAY on): the floor of an MQTT round trip here. */
async function bareResponder(broker: Broker, deviceId: string): Promise<MqttClient> {
  const id = broker.cert(deviceId);
  const client = await mqtt.connectAsync(broker.url, { protocolVersion: 5, ca: broker.ca, cert: id.cert, key: id.key, clientId: deviceId });
  (client.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
  client.on('message', (_topic, payload, packet) => {
    const { id: requestId } = JSON.parse(payload.toString()) as { id: string };
    const answer = JSON.stringify({ id: requestId, status: 201, body: { status: 'success' } });
    client.publish(packet.properties?.responseTopic ?? `printproxy/v1/${deviceId}/res`, answer, { qos: 1, properties: { correlationData: packet.properties?.correlationData } });
  });
  await client.subscribeAsync(`printproxy/v1/${deviceId}/req`, { qos: 1 });
  return client;
}

/** The median of `count` RSS samples of `pid`, one every `everyMs`, MiB. */
async function rssSamples(pid: number, count: number, everyMs = 1000): Promise<number> {
  const values: number[] = [];
  for (let i = 0; i < count; i += 1) {
    await sleep(everyMs);
    values.push(rssMiB(pid));
  }
  return median(values);
}

async function memory(broker: Broker, entry: string | undefined): Promise<void> {
  console.log(`\n## the daemon's RSS (${entry ?? 'src/main.ts (tsx)'})`);
  const d = await startDaemon({ entry, env: DAEMON_ENV });
  const pid = d.proc.pid!;
  await d.api('GET', '/status');
  await sleep(5000);
  const off = await rssSamples(pid, 5);
  console.log(`bridge off: ${off.toFixed(1)} MiB (median of 5 samples)`);
  const id = broker.cert('rss-dev');
  await d.api('PUT', '/fleet', { body: { enabled: true, brokerUrl: broker.url, deviceId: 'rss-dev', ca: broker.ca, cert: id.cert, key: id.key } });
  await connected(d);
  await sleep(5000);
  const on = await rssSamples(pid, 5);
  console.log(`bridge on and idle: ${on.toFixed(1)} MiB: ${(on - off).toFixed(1)} MiB more (target <= 8 MiB)`);

  console.log(`\n## ${MINUTES} min with the broker unreachable while events are emitted (printer.updated, ~20/s), beside the same daemon with the bridge off`);
  const control = await startDaemon({ entry, env: DAEMON_ENV });
  const emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  await broker.stop();
  const [withBridge, without] = await Promise.all([soak(d, port, 'bridge on, broker down'), soak(control, port, 'bridge off')]);
  console.log(`RSS growth over ${MINUTES} min: ${withBridge.toFixed(1)} MiB with the bridge and the broker unreachable, ${without.toFixed(1)} MiB with the bridge off: the bridge's share ${(withBridge - without).toFixed(1)} MiB (target <= 2 MiB beyond the outbox bound; the outbox is on disk)`);
  await Promise.all([d.stop(), control.stop()]);
  await emulator.stop();
}

/** Emits printer.updated events on `d` (PATCH of a printer's tags, ~20/s) for MINUTES; resolves with its RSS growth, MiB. */
async function soak(d: DaemonHandle, port: number, label: string): Promise<number> {
  const pid = d.proc.pid!;
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  const printer = added.body.result.content.path as string;
  let emitted = 0;
  let running = true;
  const emitter = (async () => {
    while (running) {
      await d.api('PATCH', `/printers/${printer}`, { body: { tags: [`t${emitted % 2}`] } });
      emitted += 1;
      await sleep(50);
    }
  })();
  await sleep(10_000);
  // RSS swings by several MiB with the heap's collections: each figure is the median of a minute's samples (every 5 s)
  const minuteMedian = () => rssSamples(pid, 12, 5000);
  const began = performance.now();
  const start = await minuteMedian();
  console.log(`  ${label}: first minute (after 10 s of warm-up), median: ${start.toFixed(1)} MiB`);
  let end = start;
  while (performance.now() - began < MINUTES * 60_000 - 1000) {
    end = await minuteMedian();
    const fleet = (await d.api('GET', '/status')).body.result.content.fleet;
    console.log(`  ${label}: minute to ${seconds(performance.now() - began)} s, median: ${end.toFixed(1)} MiB, ${emitted} events emitted, outbox ${fleet?.pendingEvents ?? 'n/a'}, state ${fleet?.state ?? 'n/a'}`);
  }
  running = false;
  await emitter;
  return end - start;
}

async function main(): Promise<void> {
  if (relaunched()) return;
  const entry = existsSync('dist/printproxyd.cjs') ? 'dist/printproxyd.cjs' : undefined;
  const broker = await startBroker();
  appendFileSync(join(broker.dir, 'mosquitto.conf'), `max_connections ${DEVICES + 100}\nset_tcp_nodelay true\n`);
  await broker.restart();
  const fleet = await fleetOf(broker);
  const devices = await simulatedFleet(broker, fleet);
  console.log(`\nstopping the ${DEVICES} simulated devices`);
  await Promise.all(devices.map((d) => d.stop()));
  await roundTrips(broker, fleet, entry);
  await fleet.close();
  await memory(broker, entry);
}

void main().then(
  () => process.exit(process.exitCode ?? 0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
