// What the fleet side knows of each device, from its retained `P/status` (birth and death with an epoch, fleet.md).
import { parseJsonObject } from './json-payload';

/** One device as the fleet last saw it. */
export interface FleetDevice {
  deviceId: string;
  online: boolean;
  /** Epoch of the connection the last accepted status message speaks of. */
  epoch: number;
  bootId: string | null;
  version: string | null;
  /** ISO time the device's current connection began (from the birth), or null when never seen online. */
  since: string | null;
}

/** What a status message changed: a device appeared or changed, went away (empty retained message), or nothing. */
export type DirectoryChange = { kind: 'updated'; device: FleetDevice } | { kind: 'removed'; deviceId: string } | { kind: 'ignored' };

/** The devices known from their status messages; a death older than the current birth's epoch is ignored. */
export class DeviceDirectory {
  private readonly devices = new Map<string, FleetDevice>();

  /** Applies one `P/status` payload (empty = the device cleared its status) and says what changed. */
  apply(deviceId: string, payload: Uint8Array): DirectoryChange {
    if (payload.length === 0) return this.devices.delete(deviceId) ? { kind: 'removed', deviceId } : { kind: 'ignored' };
    const status = parseStatus(payload);
    if (!status) return { kind: 'ignored' };
    const known = this.devices.get(deviceId);
    if (!status.online && known && status.epoch < known.epoch) return { kind: 'ignored' };
    const device: FleetDevice = status.online
      ? { deviceId, online: true, epoch: status.epoch, bootId: status.bootId, version: status.version, since: status.since }
      : { deviceId, online: false, epoch: status.epoch, bootId: known?.bootId ?? null, version: known?.version ?? null, since: known?.since ?? null };
    this.devices.set(deviceId, device);
    return { kind: 'updated', device };
  }

  /** Every known device, sorted by id. */
  list(): FleetDevice[] {
    return [...this.devices.values()].sort((a, b) => (a.deviceId < b.deviceId ? -1 : a.deviceId > b.deviceId ? 1 : 0));
  }

  /** One device, or undefined when none has announced that id. */
  get(deviceId: string): FleetDevice | undefined {
    return this.devices.get(deviceId);
  }
}

interface StatusPayload {
  online: boolean;
  epoch: number;
  bootId: string | null;
  version: string | null;
  since: string | null;
}

function parseStatus(payload: Uint8Array): StatusPayload | null {
  const v = parseJsonObject(payload);
  if (v === null) return null;
  if (typeof v.online !== 'boolean' || typeof v.epoch !== 'number' || !Number.isFinite(v.epoch)) return null;
  return { online: v.online, epoch: v.epoch, bootId: str(v.bootId), version: str(v.version), since: str(v.since) };
}

function str(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}
