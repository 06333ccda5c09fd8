// The fleet settings in DATA/fleet/settings.json: defaults, the masked view, and saves that are atomic and change memory only after the disk.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { AppError } from '../errors';
import { FLEET_DEFAULTS, FleetSettingsSchema, MASKED, type FleetSettings, type FleetSettingsPut } from '../schemas/fleet';
import { readWithFallback, writeFileAtomic } from '../settings/atomic-file';
import { Mutex } from '../util/mutex';

const checkStored = TypeCompiler.Compile(FleetSettingsSchema);

/** Stored settings plus whether `deviceId` was left to the device's own id. */
interface StoredFleet {
  settings: FleetSettings;
  ownDeviceId: boolean;
}

/** The store's content at one moment (`snapshot`), to be written back with `restore`. */
export type FleetSnapshot = Readonly<StoredFleet>;

/** Owns the fleet settings file; `deviceIdOfDevice` gives the default deviceId (the device's 4-character id). */
export class FleetSettingsStore {
  private readonly file: string;
  private current: StoredFleet;
  private readonly lock = new Mutex();

  constructor(private readonly dir: string, private readonly deviceIdOfDevice: () => string) {
    this.file = join(dir, 'settings.json');
    const loaded = readWithFallback(this.file, parseStored);
    this.current = loaded?.value ?? { settings: defaults(deviceIdOfDevice()), ownDeviceId: true };
  }

  /** The settings in force (secrets in clear; never answer these to a client). */
  get value(): Readonly<FleetSettings> {
    const { settings, ownDeviceId } = this.current;
    return ownDeviceId ? { ...settings, deviceId: this.deviceIdOfDevice() } : settings;
  }

  /** The settings as GET /fleet shows them: `password` and `key` masked when set. */
  masked(): FleetSettings {
    const value = this.value;
    return { ...value, password: value.password ? MASKED : null, key: value.key ? MASKED : null };
  }

  /**
   * Replaces the settings with `put` (absent fields take their defaults; a masked secret keeps the stored one), writes
   * them atomically, and only then makes them current; throws CHANGE_NOT_STORED (507) when the write fails, or
   * INVALID_REQUEST (400) naming the field of an inconsistent object.
   */
  async replace(put: FleetSettingsPut): Promise<FleetSettings> {
    return this.lock.run(async () => {
      await this.store(this.merged(put));
      return this.value;
    });
  }

  /** Throws INVALID_REQUEST (400) naming the field when `put`, valid by its schema, is inconsistent; changes nothing. */
  check(put: FleetSettingsPut): void {
    if (put.enabled && !put.brokerUrl) throw new AppError('INVALID_REQUEST', 'brokerUrl is required when enabled is true');
  }

  /** What the store holds now, secrets in clear, for `restore` (undoing a replace that was part of a larger change). */
  snapshot(): FleetSnapshot {
    return structuredClone(this.current);
  }

  /** Writes `snapshot` back atomically, then makes it current; throws CHANGE_NOT_STORED (507) when the write fails. */
  async restore(snapshot: FleetSnapshot): Promise<void> {
    return this.lock.run(() => this.store(structuredClone(snapshot)));
  }

  private async store(next: StoredFleet): Promise<void> {
    try {
      // made at the first write, so a full or read-only partition at start costs the fleet nothing but its settings
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      await writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`);
    } catch (err) {
      throw new AppError('CHANGE_NOT_STORED', `the fleet settings could not be stored: ${(err as Error).message}`);
    }
    this.current = next;
  }

  private merged(put: FleetSettingsPut): StoredFleet {
    const old = this.current.settings;
    this.check(put);
    const keep = (sent: string | null | undefined, stored: string | null) => (sent === MASKED ? stored : sent ?? null);
    const ownDeviceId = put.deviceId === undefined || put.deviceId === null;
    const settings: FleetSettings = {
      enabled: put.enabled,
      brokerUrl: put.brokerUrl,
      deviceId: ownDeviceId ? this.deviceIdOfDevice() : put.deviceId!,
      topicPrefix: put.topicPrefix ?? FLEET_DEFAULTS.topicPrefix,
      username: put.username ?? null,
      password: keep(put.password, old.password),
      ca: put.ca ?? null,
      cert: put.cert ?? null,
      key: keep(put.key, old.key),
      keepaliveSec: put.keepaliveSec ?? FLEET_DEFAULTS.keepaliveSec,
      sessionExpirySec: put.sessionExpirySec ?? FLEET_DEFAULTS.sessionExpirySec,
      inlineMaxBytes: put.inlineMaxBytes ?? FLEET_DEFAULTS.inlineMaxBytes,
    };
    return { settings, ownDeviceId };
  }
}

function defaults(deviceId: string): FleetSettings {
  return { enabled: false, brokerUrl: null, deviceId, username: null, password: null, ca: null, cert: null, key: null, ...FLEET_DEFAULTS };
}

function parseStored(text: string): StoredFleet {
  const value = JSON.parse(text) as StoredFleet;
  if (typeof value?.ownDeviceId !== 'boolean' || !checkStored.Check(value.settings)) throw new Error('fleet settings file is not valid');
  return value;
}
