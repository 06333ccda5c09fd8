// Persisted settings: load with fallback and migration, one serialised save path, memory changed only after the disk.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { StoredSettingsSchema, type StoredSettings } from '../schemas/settings';
import { AppError } from '../errors';
import { isTemporaryOf, readWithFallback, removeLeftovers, writeFileAtomic } from './atomic-file';
import { migrateSettings } from './migrations';
import type { Logger } from '../log';

const checkSettings = TypeCompiler.Compile(StoredSettingsSchema);

/** Default request body limit: 64 MiB (decisions.md). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Options for opening the store. */
export interface SettingsStoreOptions {
  dataDir: string;
  /** When set, the API key is this value (persisted); otherwise the stored one, or none (the device is unclaimed). */
  seedApiKey?: string;
  logger: Logger;
}

/** Owns settings.json in the data dir; every change goes through `update`: written atomically in order, then made current. */
export class SettingsStore {
  readonly file: string;
  private current: StoredSettings;
  /** What settings.json holds as this store last read or wrote it; null when it must be written. */
  private onDisk: string | null;
  private queue: Promise<void> = Promise.resolve();
  private readonly logger: Logger;
  private readonly listeners = new Set<() => void>();

  constructor(options: SettingsStoreOptions) {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    this.file = join(options.dataDir, 'settings.json');
    this.logger = options.logger;
    const swept = removeLeftovers(options.dataDir, (name) => isTemporaryOf(basename(this.file), name));
    if (swept.length > 0) this.logger.warn('removed temporaries of an interrupted settings write', { files: swept });
    const loaded = readWithFallback(this.file, parseSettings);
    if (loaded?.from === 'backup') this.setAsideBroken();
    const base = loaded?.value ?? defaultSettings();
    this.current = options.seedApiKey ? { ...base, apiKey: options.seedApiKey } : base;
    this.onDisk = loaded?.from === 'main' ? loaded.text : null;
  }

  /** The current settings; treat as read-only, change them through `update`. */
  get value(): Readonly<StoredSettings> {
    return this.current;
  }

  /**
   * After every earlier save, applies `change` to a copy of the settings and writes it atomically; only then is the copy
   * current. When the write fails nothing changes, in memory or on disk, and the promise rejects with CHANGE_NOT_STORED.
   * When `abandoned` is aborted before the new settings are current (the caller who would learn of them left), the change is
   * not made, or written back out, and the promise rejects with INTERRUPTED. A `change` that throws changes nothing and
   * rejects with its error.
   */
  update(change: (draft: StoredSettings) => void, abandoned?: AbortSignal): Promise<void> {
    return this.enqueue(async () => {
      refuseIfAbandoned(abandoned);
      const draft = structuredClone(this.current);
      change(draft);
      await this.store(draft, abandoned);
      this.notify();
    });
  }

  /** True once the device has an API key (stored, seeded or set through `claim`). */
  get claimed(): boolean {
    return this.current.apiKey !== null;
  }

  /**
   * Sets the first API key (device-image.md "Claim on first visit") as `update` does: on disk, then in force. Rejects with
   * ALREADY_SET_UP (409) when a key is set, checked in turn with every other change, so that of two claims one wins.
   */
  claim(apiKey: string, abandoned?: AbortSignal): Promise<void> {
    return this.update((draft) => {
      if (draft.apiKey !== null) throw new AppError('ALREADY_SET_UP', 'the device already has an API key; change it with POST /settings/api-key');
      draft.apiKey = apiKey;
    }, abandoned);
  }

  /** Calls `listener` after each `update`, once the new value is on disk and current; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes the current state unless settings.json already holds it (first start, a restored backup); rejects with CHANGE_NOT_STORED. */
  persist(): Promise<void> {
    return this.enqueue(() => this.store(this.current));
  }

  /** Resolves when every save requested so far has ended (stored or refused). */
  async flush(): Promise<void> {
    await this.queue;
  }

  /** Moves an unreadable settings.json to `.corrupt`, so the next write cannot make it the backup over the good copy. */
  private setAsideBroken(): void {
    this.logger.warn('settings.json unreadable, restored the previous copy', { file: this.file, keptAs: `${this.file}.corrupt` });
    try {
      renameSync(this.file, `${this.file}.corrupt`);
    } catch {
      // missing: nothing to set aside
    }
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    const run = this.queue.then(step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Writes `next` when the disk does not hold it yet, then makes it current; on a failed or abandoned write nothing changes. */
  private async store(next: StoredSettings, abandoned?: AbortSignal): Promise<void> {
    const text = JSON.stringify(next, null, 2);
    if (text !== this.onDisk) {
      const before = this.onDisk;
      await this.write(text);
      if (abandoned?.aborted) {
        await this.write(before ?? JSON.stringify(this.current, null, 2));
        refuseIfAbandoned(abandoned);
      }
    }
    this.current = next;
  }

  /** Writes `text` atomically and records it as what the disk holds; throws CHANGE_NOT_STORED. */
  private async write(text: string): Promise<void> {
    try {
      await writeFileAtomic(this.file, text);
    } catch (err) {
      this.logger.warn('settings could not be saved; nothing changed', { file: this.file, reason: (err as Error).message });
      throw new AppError('CHANGE_NOT_STORED', `The change could not be written to the device's storage (${(err as NodeJS.ErrnoException).code ?? 'error'}).`, { cause: err });
    }
    this.onDisk = text;
  }

  private notify(): void {
    for (const listener of this.listeners) {
      try {
        listener();
      } catch (err) {
        this.logger.warn('settings change listener failed', { reason: (err as Error).message });
      }
    }
  }
}

function refuseIfAbandoned(abandoned: AbortSignal | undefined): void {
  if (abandoned?.aborted) throw new AppError('INTERRUPTED', 'the request ended before the change was made; nothing changed');
}

/** Generates a 4-character `[a-z0-9]` device id. */
export function generateDeviceId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  return Array.from(randomBytes(4), (b) => alphabet[b % alphabet.length]).join('');
}

/** Generates a new random API key (32 url-safe characters). */
export function generateApiKey(): string {
  return randomBytes(24).toString('base64url');
}

function defaultSettings(): StoredSettings {
  return {
    version: 1,
    deviceId: generateDeviceId(),
    apiKey: null,
    alias: '',
    subDomain: '',
    allowedOrigins: ['*'],
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    printers: [],
    printerOverrides: {},
    shares: [],
    extensions: [],
  };
}

function parseSettings(text: string): StoredSettings {
  const migrated = migrateSettings(JSON.parse(text) as unknown);
  if (!checkSettings.Check(migrated)) throw new TypeError('settings.json does not match the schema');
  return migrated;
}
