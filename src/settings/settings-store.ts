// Persisted settings: load with fallback and migration, one serialised save path, atomic writes.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { StoredSettingsSchema, type StoredSettings } from '../schemas/settings';
import { readWithFallback, writeFileAtomic } from './atomic-file';
import { migrateSettings } from './migrations';
import type { Logger } from '../log';

const checkSettings = TypeCompiler.Compile(StoredSettingsSchema);

/** Default request body limit: 64 MiB (decisions.md). */
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Options for opening the store. */
export interface SettingsStoreOptions {
  dataDir: string;
  /** When set, the API key is this value (persisted); otherwise the stored or a generated one. */
  seedApiKey?: string;
  logger: Logger;
}

/** Owns settings.json in the data dir; every change goes through `update`, saved atomically in order. */
export class SettingsStore {
  readonly file: string;
  /** True when this start generated the API key (the caller prints it once). */
  readonly generatedApiKey: boolean;
  private current: StoredSettings;
  private saving: Promise<void> = Promise.resolve();
  private readonly logger: Logger;
  private readonly listeners = new Set<() => void>();

  constructor(options: SettingsStoreOptions) {
    mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    this.file = join(options.dataDir, 'settings.json');
    this.logger = options.logger;
    const loaded = readWithFallback(this.file, parseSettings);
    if (loaded?.from === 'backup') this.logger.warn('settings.json unreadable, restored the previous copy', { file: this.file });
    const base = loaded?.value ?? defaultSettings();
    this.generatedApiKey = !loaded && !options.seedApiKey;
    this.current = options.seedApiKey ? { ...base, apiKey: options.seedApiKey } : base;
  }

  /** The current settings; treat as read-only, change them through `update`. */
  get value(): Readonly<StoredSettings> {
    return this.current;
  }

  /** Applies `change` to a copy, saves it atomically after any earlier save, resolves when on disk. */
  update(change: (draft: StoredSettings) => void): Promise<void> {
    const draft = structuredClone(this.current);
    change(draft);
    this.current = draft;
    const saved = this.persist();
    for (const listener of this.listeners) listener();
    return saved;
  }

  /** Calls `listener` after each `update`, once the new value is current (not yet on disk); returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Writes the current state (used at first start and at shutdown). */
  persist(): Promise<void> {
    const snapshot = JSON.stringify(this.current, null, 2);
    this.saving = this.saving.catch(() => undefined).then(() => writeFileAtomic(this.file, snapshot));
    return this.saving;
  }

  /** Resolves when every save requested so far is on disk. */
  async flush(): Promise<void> {
    await this.saving;
  }
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
    apiKey: generateApiKey(),
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
