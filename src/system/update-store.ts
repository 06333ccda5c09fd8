// The update record (DATA/system/update.json) and the idempotency keys of update requests (DATA/system/update-keys.json):
// each written atomically, and changed in memory only once on disk.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Type } from '@sinclair/typebox';
import { readWithFallback, writeFileAtomic } from '../settings/atomic-file';
import { UpdateRecordSchema, type UpdateRecord } from '../schemas/system';

/** Keys remembered: the oldest are forgotten past this many (a fleet sends one per device per release). */
const MAX_KEYS = 256;

// the record as stored: startedAt is checked as a string (TypeBox knows no `date-time` format without a registry)
const StoredRecordSchema = Type.Composite([Type.Omit(UpdateRecordSchema, ['startedAt']), Type.Object({ startedAt: Type.String() })]);
const KeyEntrySchema = Type.Object({ key: Type.String(), update: StoredRecordSchema });
const checkRecord = TypeCompiler.Compile(StoredRecordSchema);
const checkKeys = TypeCompiler.Compile(Type.Array(KeyEntrySchema));

/** One remembered key and the last known state of its update. */
export type KeyEntry = { key: string; update: UpdateRecord };

/** The persisted update state; `load` once at start, then every change through `save` / `start`. */
export class UpdateStore {
  private record: UpdateRecord | null = null;
  private keys: KeyEntry[] = [];
  private readonly recordFile: string;
  private readonly keysFile: string;

  /** Files under `dir` (DATA/system). */
  constructor(readonly dir: string) {
    this.recordFile = join(dir, 'update.json');
    this.keysFile = join(dir, 'update-keys.json');
  }

  /** Reads both files (a corrupt main copy falls back to its backup; neither: nothing known); creates the folder when it can. */
  load(): void {
    try {
      mkdirSync(this.dir, { recursive: true });
    } catch {
      // a read-only or full data partition: the daemon still starts and serves; an update's writes then fail as storage errors
    }
    this.record = readWithFallback(this.recordFile, (text) => parse(text, (v): v is UpdateRecord | null => v === null || checkRecord.Check(v)))?.value ?? null;
    this.keys = readWithFallback(this.keysFile, (text) => parse(text, (v): v is KeyEntry[] => checkKeys.Check(v)))?.value ?? [];
  }

  /** The current (last) update, or null before the first. */
  get current(): UpdateRecord | null {
    return this.record;
  }

  /** The update a request with `key` started, in its latest known state: the current record when it is that one. */
  byKey(key: string): UpdateRecord | null {
    const entry = this.keys.find((e) => e.key === key);
    if (!entry) return null;
    return this.record?.id === entry.update.id ? this.record : entry.update;
  }

  /**
   * Starts `next`: its key (with the last state of the update it replaces, kept for that one's key) is written first,
   * then the record, so that a request delivered again after a crash between the two never installs twice.
   */
  async start(next: UpdateRecord): Promise<void> {
    const previous = this.record;
    let keys = previous?.idempotencyKey ? this.keys.map((e) => (e.update.id === previous.id ? { key: e.key, update: previous } : e)) : this.keys;
    if (next.idempotencyKey) keys = [...keys.filter((e) => e.key !== next.idempotencyKey), { key: next.idempotencyKey, update: next }].slice(-MAX_KEYS);
    if (keys !== this.keys) {
      await writeFileAtomic(this.keysFile, JSON.stringify(keys));
      this.keys = keys;
    }
    await this.save(next);
  }

  /** Writes `record` as the current update; memory follows once it is on disk. */
  async save(record: UpdateRecord): Promise<void> {
    await writeFileAtomic(this.recordFile, JSON.stringify(record), { backup: true });
    this.record = record;
  }
}

function parse<T>(text: string, check: (value: unknown) => value is T): T {
  const value: unknown = JSON.parse(text);
  if (!check(value)) throw new Error('not a valid update file');
  return value;
}
