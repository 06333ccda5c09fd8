// One simulated device for bench/fleet.ts: the real FleetBridge of src/fleet/ with its own data folder, settings store,
// event bus and a route table of one in-memory ZPL printer (GET /printers, POST /print/{target}, GET /jobs/{jobId}).
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { EventBus } from '../src/events/event-bus';
import { FleetBridge } from '../src/fleet/fleet-bridge';
import { FleetSettingsStore } from '../src/fleet/fleet-settings-store';
import { ApiDispatcher } from '../src/http/api-dispatch';
import type { Route } from '../src/http/route';
import { silentLogger } from '../src/log';
import type { JobRecord } from '../src/schemas/job';

/** Where a simulated device connects, as whom. */
export interface SimDeviceOptions {
  deviceId: string;
  /** Its data folder (the bridge's epoch, answers journal and outbox go in `dir`/fleet). */
  dir: string;
  brokerUrl: string;
  ca: string;
  cert: string;
  key: string;
}

/** A simulated device, built (settings stored, files open) but not connecting until start(). */
export interface SimDevice {
  bridge: FleetBridge;
  start: () => void;
  stop: () => Promise<void>;
}

/** Builds one device's bridge in front of an in-memory printer; start() connects it. */
export async function prepareSimDevice(o: SimDeviceOptions): Promise<SimDevice> {
  const fleetDir = join(o.dir, 'fleet');
  const settings = new FleetSettingsStore(fleetDir, () => o.deviceId);
  await settings.replace({ enabled: true, brokerUrl: o.brokerUrl, deviceId: o.deviceId, ca: o.ca, cert: o.cert, key: o.key });
  const bus = new EventBus(silentLogger);
  const jobs = new Map<string, JobRecord>();
  const bridge = await FleetBridge.open({
    dir: fleetDir, settings, dispatcher: new ApiDispatcher(memoryPrinterRoutes(bus, jobs), silentLogger), bus,
    job: async (jobId) => jobs.get(jobId), maxBodyBytes: () => 64 * 1024 * 1024, connect: mqtt.connect,
    bootId: randomUUID(), version: '0.0.0-sim', logger: silentLogger, now: Date.now, random: Math.random,
  });
  return { bridge, start: () => bridge.start(), stop: () => bridge.stop() };
}

const PRINTER = { path: 'tcp-10-0-0-5-9100', model: 'Simulated ZPL', status: 'online', statusReasons: [], tags: ['shipping'], content: 'zpl' };

function memoryPrinterRoutes(bus: EventBus, jobs: Map<string, JobRecord>): Route[] {
  return [
    { method: 'get', path: '/printers', tag: 'printers', summary: 'the one printer', handler: () => ({ message: 'Printers.', content: [PRINTER] }) },
    {
      method: 'post', path: '/print/{target}', tag: 'print', summary: 'prints to memory',
      handler: (req) => {
        const now = new Date().toISOString();
        const job: JobRecord = {
          jobId: randomUUID(), printer: PRINTER.path, target: req.params.target, title: 'Untitled', source: null, state: 'completed',
          error: null, errorCode: null, createdAt: now, completedAt: now, contentType: 'zpl', size: 0, cupsJobId: null, printedAt: null,
        };
        jobs.set(job.jobId, job);
        bus.emit('job.state', job);
        return { status: 201, message: 'Job printed.', content: job };
      },
    },
    {
      method: 'get', path: '/jobs/{jobId}', tag: 'jobs', summary: 'a job',
      handler: (req) => ({ message: 'Job.', content: jobs.get(req.params.jobId) ?? null }),
    },
  ];
}
