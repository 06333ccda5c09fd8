// Shared pieces of the bridge tests: a daemon process joined to a test broker, a ZPL emulator as its printer, and the
// fleet side (the fleet client library, or a raw MQTT client that records every message under the prefix).
import mqtt, { type MqttClient } from 'mqtt';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { until } from '../helpers/until';
import { startBroker, type Broker } from '../fixtures/mosquitto-broker';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { FleetClient } from '../../src/fleet/client';

/** The fleet settings a test device gets (its certificate made for CN = deviceId). */
export function fleetSettings(broker: Broker, deviceId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const id = broker.cert(deviceId);
  return { enabled: true, brokerUrl: broker.url, deviceId, ca: broker.ca, cert: id.cert, key: id.key, keepaliveSec: 5, ...extra };
}

/** Starts a daemon (in `dataDir` when given: a restart), joins it to the broker when `join`, and waits until it is connected. */
export async function startDevice(broker: Broker, deviceId: string, options: { dataDir?: string; join?: boolean } = {}): Promise<DaemonHandle> {
  const daemon = await startDaemon({ dataDir: options.dataDir });
  if (options.join !== false) {
    const put = await daemon.api('PUT', '/fleet', { body: fleetSettings(broker, deviceId) });
    if (put.status !== 200) throw new Error(`PUT /fleet: ${put.status} ${JSON.stringify(put.body)}`);
  }
  await until('fleet connected', async () => (await daemon.api('GET', '/status')).body.result.content.fleet?.state === 'connected', 20_000);
  return daemon;
}

/** Adds the emulator as a ZPL printer; returns its path. */
export async function addZplPrinter(daemon: DaemonHandle, emulator: ZplPrinterEmulator, port: number): Promise<string> {
  const added = await daemon.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  if (added.status !== 201) throw new Error(`POST /printers: ${added.status} ${JSON.stringify(added.body)}`);
  return added.body.result.content.path as string;
}

/** Labels the emulator received with `^FD<marker>^FS`, counted by marker. */
export function printedMarkers(emulator: ZplPrinterEmulator): Map<string, number> {
  const counts = new Map<string, number>();
  for (const job of emulator.jobs()) {
    for (const m of job.toString('latin1').matchAll(/\^FD([^^]*)\^FS/g)) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  }
  return counts;
}

/** A fleet-side MQTT client (CN `fleet`) that records every message under the prefix. */
export interface Recorder {
  client: MqttClient;
  messages: Array<{ topic: string; text: string; retain: boolean; correlation: string | null }>;
  /** Parsed JSON of messages on `topic` (empty payloads skipped). */
  json(topic: string): any[];
  end(): Promise<void>;
}

/** Connects a recorder subscribed to `printproxy/#`. */
export async function record(broker: Broker): Promise<Recorder> {
  const id = broker.cert('fleet');
  // a persistent session: what is published while the recorder reconnects after a broker restart waits for it
  const client = await mqtt.connectAsync(broker.url, {
    protocolVersion: 5, ca: broker.ca, cert: id.cert, key: id.key, clientId: `rec-${Math.random().toString(16).slice(2, 10)}`, reconnectPeriod: 500,
    clean: false, properties: { sessionExpiryInterval: 600 },
  });
  const messages: Recorder['messages'] = [];
  client.on('message', (topic, payload, packet) => {
    const corr = packet.properties?.correlationData;
    messages.push({ topic, text: payload.toString('utf8'), retain: packet.retain, correlation: corr ? Buffer.from(corr).toString() : null });
  });
  await client.subscribeAsync('printproxy/#', { qos: 1 });
  return {
    client,
    messages,
    json: (topic) => messages.filter((m) => m.topic === topic && m.text.length > 0).map((m) => JSON.parse(m.text)),
    end: () => client.endAsync(true),
  };
}

/** The fleet client library connected as CN `fleet`. */
export function fleetClient(broker: Broker): Promise<FleetClient> {
  const id = broker.cert('fleet');
  return FleetClient.connect({ url: broker.url, ca: broker.ca, cert: id.cert, key: id.key });
}

/** What a bridge test runs against: a broker, the ZPL emulator as the printer of a daemon joined as the device, the fleet side. */
export interface Bench<F> { broker: Broker; emulator: ZplPrinterEmulator; daemon: DaemonHandle; printer: string; fleet: F }

/** How a bench's fleet side starts (before or after the device joins) and how it and the daemon stop. */
interface FleetSide<F> {
  connect(broker: Broker): Promise<F>;
  beforeDevice: boolean;
  stop(bench: Partial<Bench<F>>): Promise<void>;
}

const RECORDER: FleetSide<Recorder> = {
  connect: record,
  beforeDevice: true,
  stop: async (bench) => { await bench.daemon?.stop(); await bench.fleet?.end(); },
};

const CLIENT: FleetSide<FleetClient> = {
  connect: fleetClient,
  beforeDevice: false,
  stop: async (bench) => { await bench.fleet?.close(); await bench.daemon?.stop(); },
};

/** Starts a bench whose fleet side is a recorder subscribed before the device joins; a failure stops what started. */
export function startRecorderBench(deviceId: string): Promise<Bench<Recorder>> {
  return startBench(deviceId, RECORDER);
}

/** Stops a recorder bench (each piece that is there): daemon, recorder, emulator, broker. */
export function stopRecorderBench(bench: Partial<Bench<Recorder>>): Promise<void> {
  return stopBench(bench, RECORDER);
}

/** Starts a bench whose fleet side is the fleet client library, connected after the device joined; a failure stops what started. */
export function startClientBench(deviceId: string): Promise<Bench<FleetClient>> {
  return startBench(deviceId, CLIENT);
}

/** Stops a client bench (each piece that is there): fleet client, daemon, emulator, broker. */
export function stopClientBench(bench: Partial<Bench<FleetClient>>): Promise<void> {
  return stopBench(bench, CLIENT);
}

async function startBench<F>(deviceId: string, side: FleetSide<F>): Promise<Bench<F>> {
  const bench: Partial<Bench<F>> = {};
  try {
    const broker = bench.broker = await startBroker();
    const emulator = bench.emulator = new ZplPrinterEmulator();
    const port = await emulator.start();
    if (side.beforeDevice) bench.fleet = await side.connect(broker);
    const daemon = bench.daemon = await startDevice(broker, deviceId);
    bench.printer = await addZplPrinter(daemon, emulator, port);
    if (!side.beforeDevice) bench.fleet = await side.connect(broker);
    return bench as Bench<F>;
  } catch (err) {
    await stopBench(bench, side);
    throw err;
  }
}

async function stopBench<F>(bench: Partial<Bench<F>>, side: FleetSide<F>): Promise<void> {
  await side.stop(bench);
  await bench.emulator?.stop();
  await bench.broker?.stop();
}
