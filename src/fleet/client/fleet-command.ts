// `printproxyd fleet …`: the fleet side on the command line (fleet.md "For the fleet side"), over the client library.
import { randomUUID } from 'node:crypto';
import { FleetClientError } from '../../errors';
import type { FleetDevice } from './device-directory';
import { FleetClient, type FleetClientOptions } from './fleet-client';
import { FLEET_USAGE, parseFleetCommandLine, type FleetCommand, type FleetCommandLine } from './fleet-command-line';
import { printBody } from './fleet-print-body';
import { rollOut } from './fleet-update';
import type { FleetAnswer } from './pending-answers';

/** What the command touches outside itself: files, output, the broker, and the signal that ends `watch`. */
export interface FleetCommandIo {
  readFile: (path: string) => Promise<Uint8Array>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  connect: (options: FleetClientOptions) => Promise<FleetClient>;
  /** Resolves when the user asks to stop (SIGINT, SIGTERM). */
  interrupted: () => Promise<void>;
  /** Resolves after `ms` milliseconds (the pause between two looks at a device's update). */
  wait: (ms: number) => Promise<void>;
}

/** Runs one fleet command; resolves with the exit status: 0 done, 1 failed (a non-2xx answer too), 2 bad usage. */
export async function runFleetCommand(argv: string[], env: NodeJS.ProcessEnv, io: FleetCommandIo): Promise<number> {
  if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    io.stdout(FLEET_USAGE + '\n');
    return 0;
  }
  let line: FleetCommandLine;
  try {
    line = parseFleetCommandLine(argv, env);
  } catch (err) {
    io.stderr(`${message(err)}\n${FLEET_USAGE}\n`);
    return 2;
  }
  let client: FleetClient | undefined;
  try {
    client = await io.connect(await connectionOptions(line, io));
    return await run(client, line, io);
  } catch (err) {
    io.stderr(`printproxyd fleet: ${message(err)}\n`);
    return 1;
  } finally {
    await client?.close();
  }
}

async function connectionOptions(line: FleetCommandLine, io: FleetCommandIo): Promise<FleetClientOptions> {
  const file = async (path: string | undefined) => (path === undefined ? undefined : Buffer.from(await io.readFile(path)));
  return { url: line.broker, topicPrefix: line.topicPrefix, ca: await file(line.caFile), cert: await file(line.certFile), key: await file(line.keyFile), username: line.username, password: line.password };
}

async function run(client: FleetClient, line: FleetCommandLine, io: FleetCommandIo): Promise<number> {
  const command: FleetCommand = line.command;
  switch (command.name) {
    case 'devices':
      io.stdout(line.json ? JSON.stringify(client.devices()) + '\n' : deviceTable(client.devices()));
      return 0;
    case 'printers':
      return printers(client, command.device, line, io);
    case 'print':
      return answer(await print(client, command, line, io), io);
    case 'job':
      return answer(await client.request(command.device, { method: 'GET', path: `/jobs/${encodeURIComponent(command.jobId)}` }, { deadlineMs: line.timeoutMs }), io);
    case 'watch':
      return watch(client, command.device, io);
    case 'update':
      return update(client, command, line, io);
  }
}

function printers(client: FleetClient, deviceId: string, line: FleetCommandLine, io: FleetCommandIo): number {
  const list = client.printers(deviceId);
  if (list === null) throw new FleetClientError('FLEET_BAD_ARGUMENT', `device ${deviceId} has published no printer list`);
  if (line.json) {
    io.stdout(JSON.stringify(list) + '\n');
    return 0;
  }
  const rows = list.map((p) => {
    const r = (p ?? {}) as Record<string, unknown>;
    return [String(r.path ?? ''), String(r.name ?? ''), String(r.status ?? ''), Array.isArray(r.tags) ? r.tags.join(',') : ''];
  });
  io.stdout(table(['PATH', 'NAME', 'STATUS', 'TAGS'], rows));
  if (client.device(deviceId)?.online === false) io.stderr(`device ${deviceId} is offline: this is the list it last published\n`);
  return 0;
}

async function print(client: FleetClient, command: Extract<FleetCommand, { name: 'print' }>, line: FleetCommandLine, io: FleetCommandIo): Promise<FleetAnswer> {
  const bytes = command.contentType?.endsWith('_url') ? new Uint8Array() : await io.readFile(command.file);
  const body = printBody(command.file, bytes, { wait: command.wait, title: command.title, contentType: command.contentType });
  // one key for every attempt, so a retry never prints twice
  const headers = { 'Idempotency-Key': command.idempotencyKey ?? `fleet-cli-${randomUUID()}` };
  return client.request(command.device, { method: 'POST', path: `/print/${encodeURIComponent(command.target)}`, headers, body }, { deadlineMs: line.timeoutMs });
}

/** How often a device's update is looked at while it installs and reboots, in ms. */
const UPDATE_POLL_MS = 5_000;

async function update(client: FleetClient, command: Extract<FleetCommand, { name: 'update' }>, line: FleetCommandLine, io: FleetCommandIo): Promise<number> {
  const devices = command.devices === 'all' ? client.devices().map((d) => d.deviceId) : command.devices;
  if (devices.length === 0) throw new FleetClientError('FLEET_BAD_ARGUMENT', 'no device to update: none has published its status');
  const deps = { request: client.request.bind(client), wait: io.wait, line: (text: string) => io.stdout(text + '\n'), now: Date.now };
  const options = { waves: command.waves, maxFailures: command.maxFailures, requestMs: line.timeoutMs, deviceMs: command.deviceMs, pollMs: UPDATE_POLL_MS };
  const result = await rollOut(deps, devices, command.update, options);
  io.stdout(`${result.succeeded.length} succeeded, ${result.failed.length} failed, ${result.notUpdated.length} not updated\n`);
  return result.failed.length === 0 && result.notUpdated.length === 0 ? 0 : 1;
}

function answer(result: FleetAnswer, io: FleetCommandIo): number {
  io.stdout(JSON.stringify(result.body, null, 2) + '\n');
  if (result.status >= 200 && result.status < 300) return 0;
  io.stderr(`the device answered ${result.status}\n`);
  return 1;
}

async function watch(client: FleetClient, deviceId: string | null, io: FleetCommandIo): Promise<number> {
  const stopDevices = client.onDevice((d) => {
    if (deviceId === null || d.deviceId === deviceId) io.stdout(JSON.stringify({ deviceId: d.deviceId, type: 'status', status: d }) + '\n');
  });
  const stopEvents = await client.events(deviceId, (e) => io.stdout(JSON.stringify(e) + '\n'));
  await io.interrupted();
  stopDevices();
  await stopEvents();
  return 0;
}

function deviceTable(devices: FleetDevice[]): string {
  const rows = devices.map((d) => [d.deviceId, d.online ? 'online' : 'offline', String(d.epoch), d.version ?? '', d.since ?? '']);
  return table(['DEVICE', 'STATE', 'EPOCH', 'VERSION', 'SINCE'], rows);
}

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const format = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd() + '\n';
  return [head, ...rows].map(format).join('');
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
