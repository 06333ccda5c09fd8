// Builds the GET /status content from system facts, build info and extension status.
import type { BuildInfo } from '../build-info';
import type { DeviceStatus, ExtensionStatus } from '../schemas/device';
import type { ExtensionSettings } from '../schemas/settings';
import { netbirdInstanceStatus, type CommandRunner } from './netbird-status';
import type { SystemInfo } from './system-info';

/** Collaborators: each read is a function so tests and the firmware can swap them. */
export interface DeviceStatusDeps {
  system: () => SystemInfo;
  build: BuildInfo;
  deviceId: () => string;
  /** The host name the setup file set (reported before the boot scripts have applied it), or null: the system's own. */
  hostname: () => string | null;
  extensions: () => readonly ExtensionSettings[];
  run: CommandRunner;
  /** Subsystems that failed to start (discovery, USB), shown as warnings. */
  warnings: () => readonly string[];
}

/** Reads the device status content of GET /status; synchronous unless an extension must be asked. */
export function readDeviceStatus(deps: DeviceStatusDeps): DeviceStatus | Promise<DeviceStatus> {
  const active = deps.extensions().filter((e) => e.enabled && e.name.toLowerCase() === 'netbird');
  if (active.length === 0) return compose(deps, []);
  return extensionStatus(active, deps.run).then((extensions) => compose(deps, extensions));
}

function compose(deps: DeviceStatusDeps, extensions: ExtensionStatus[]): DeviceStatus {
  const system = deps.system();
  return {
    uptime: system.uptime,
    version: deps.build.version,
    load: system.load,
    totalMemory: system.totalMemory,
    freeMemory: system.freeMemory,
    ipAddress: system.ipAddress,
    buildVersion: deps.build.buildVersion,
    builtAt: deps.build.builtAt,
    hostname: deps.hostname() ?? system.hostname,
    domain: system.domain,
    deviceId: deps.deviceId(),
    extensions,
    warnings: deps.warnings().slice(),
  };
}

async function extensionStatus(active: ExtensionSettings[], run: CommandRunner): Promise<ExtensionStatus[]> {
  return Promise.all(
    active.map(async (ext) => ({
      name: ext.name,
      instances: await Promise.all((ext.instances.length ? ext.instances.map((i) => i.id) : [0]).map((id) => netbirdInstanceStatus(id, run))),
    })),
  );
}
