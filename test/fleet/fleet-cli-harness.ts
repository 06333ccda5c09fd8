// `printproxyd fleet …` run as a user runs it (a child process of src/main.ts), against a real Mosquitto whose CA and
// fleet certificate are written where PRINTPROXY_FLEET_* point.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startDeviceStub, type DeviceStub, type StubAnswer } from '../fixtures/fleet-device-stub';
import { startBroker, type Broker } from '../fixtures/mosquitto-broker';
import { tempDir } from '../helpers/temp-dir';

const MAIN = resolve(__dirname, '..', '..', 'src', 'main.ts');

/** One run of the command: the child, what it printed so far, and its exit code once done. */
export interface FleetRun {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  done: Promise<number | null>;
}

/** A started broker, stub devices on it, and a way to run the fleet command against it with the fleet's identity. */
export interface FleetCli {
  broker: Broker;
  run: (...args: string[]) => FleetRun;
  /** A stub device answering with `answer` (fixtures/fleet-device-stub.ts), closed by stop(). */
  stub: (deviceId: string, answer?: StubAnswer) => Promise<DeviceStub>;
  /** Closes the stubs, then the broker. */
  stop: () => Promise<void>;
}

/** Starts Mosquitto (with `altNames` in its certificate) and writes the fleet identity's files; stop it with `stop()`. */
export async function startFleetCli({ altNames }: { altNames?: string[] } = {}): Promise<FleetCli> {
  const broker = await startBroker({ altNames });
  const files = tempDir('fleet-cli');
  const fleet = broker.cert('fleet');
  writeFileSync(join(files, 'ca.pem'), broker.ca);
  writeFileSync(join(files, 'fleet.pem'), fleet.cert);
  writeFileSync(join(files, 'fleet.key'), fleet.key);
  const env = { ...process.env, PRINTPROXY_FLEET_BROKER: broker.url, PRINTPROXY_FLEET_CA: join(files, 'ca.pem'), PRINTPROXY_FLEET_CERT: join(files, 'fleet.pem'), PRINTPROXY_FLEET_KEY: join(files, 'fleet.key') };
  const run = (...args: string[]): FleetRun => {
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'fleet', ...args], { env });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    const done = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    return { child, out: () => out, err: () => err, done };
  };
  const stubs: DeviceStub[] = [];
  const stub = async (deviceId: string, answer?: StubAnswer) => {
    const device = await startDeviceStub(broker, deviceId, { answer });
    stubs.push(device);
    return device;
  };
  const stop = async () => {
    for (const device of stubs) await device.close();
    await broker.stop();
  };
  return { broker, run, stub, stop };
}
