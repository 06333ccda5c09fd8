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
  extensions: () => readonly ExtensionSettings[];
  run: CommandRunner;
  /** Subsystems that failed to start (discovery, USB), shown as warnings. */
  warnings: () => readonly string[];
}

/** Reads the device status content of GET /status. */
export async function readDeviceStatus(deps: DeviceStatusDeps): Promise<DeviceStatus> {
  const system = deps.system();
  return {
    ...system,
    version: deps.build.version,
    buildVersion: deps.build.buildVersion,
    builtAt: deps.build.builtAt,
    deviceId: deps.deviceId(),
    extensions: await extensionStatus(deps.extensions(), deps.run),
    warnings: [...deps.warnings()],
  };
}

async function extensionStatus(settings: readonly ExtensionSettings[], run: CommandRunner): Promise<ExtensionStatus[]> {
  const active = settings.filter((e) => e.enabled && e.name.toLowerCase() === 'netbird');
  return Promise.all(
    active.map(async (ext) => ({
      name: ext.name,
      instances: await Promise.all((ext.instances.length ? ext.instances.map((i) => i.id) : [0]).map((id) => netbirdInstanceStatus(id, run))),
    })),
  );
}
