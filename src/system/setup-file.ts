// The setup file (device-image.md "Setup file"): read once at start, validated whole, applied all or nothing, then removed.
import { promises as fs } from 'node:fs';
import { AppError } from '../errors';
import type { Logger } from '../log';
import type { FleetSettingsPut } from '../schemas/fleet';
import type { StoredSettings } from '../schemas/settings';
import { SetupFileSchema, type SetupFile } from '../schemas/system';
import { compileValidator } from '../schemas/validate';

/** Larger files are refused unread: the largest valid one (three PEMs of 64 KiB) is well below. */
export const MAX_SETUP_FILE_BYTES = 1024 * 1024;

const validate = compileValidator(SetupFileSchema);

/** The settings store as the setup file changes it: every update written atomically before it is in force. */
export interface SetupSettings {
  readonly value: Readonly<StoredSettings>;
  update(change: (draft: StoredSettings) => void): Promise<void>;
}

/** The fleet settings store as the setup file changes it (PUT /fleet's semantics), with a way back. */
export interface SetupFleet<Snapshot> {
  /** Throws INVALID_REQUEST when `put` is inconsistent (enabled without brokerUrl). */
  check(put: FleetSettingsPut): void;
  snapshot(): Snapshot;
  restore(snapshot: Snapshot): Promise<void>;
  replace(put: FleetSettingsPut): Promise<unknown>;
}

/** DATA/hostname for the boot scripts: its whole content, null when absent. */
export interface SetupHostnameFile {
  read(): Promise<string | null>;
  write(content: string | null): Promise<void>;
}

/** What a setup file changes. */
export interface SetupTargets<Snapshot> {
  settings: SetupSettings;
  fleet: SetupFleet<Snapshot>;
  hostnameFile: SetupHostnameFile;
  logger: Logger;
}

/** What became of the file: the fields applied (null when nothing was), and the lines for GET /status `warnings`. */
export interface SetupOutcome {
  applied: string[] | null;
  warnings: string[];
}

/** One write, and how to undo it. */
interface Step {
  name: string;
  apply(): Promise<void>;
  undo(): Promise<void>;
}

/**
 * Applies the setup file at `path`, if there is one, before the API is served. A file that cannot be read, is not JSON
 * or fails validation (an unknown field, a field the API would refuse) changes nothing, is removed, and its warning names
 * the bad field. A valid one is written in full (settings: apiKey, which replaces any stored key, deviceId, hostname;
 * then the fleet settings as PUT /fleet; then DATA/hostname), each write atomic; when a write fails, the ones made are
 * undone, and the file stays for the next start. Once everything is written, the file is removed. Never throws.
 */
export async function applySetupFile<Snapshot>(path: string, targets: SetupTargets<Snapshot>): Promise<SetupOutcome> {
  const { logger } = targets;
  let file: SetupFile;
  try {
    const text = await readSmall(path);
    if (text === null) return { applied: null, warnings: [] };
    file = parse(text, targets.fleet);
  } catch (err) {
    const line = `setup file not applied: ${(err as Error).message}`;
    logger.warn(line, { file: path });
    const removed = await remove(path);
    return { applied: null, warnings: removed === true ? [line] : [line, `setup file could not be removed (${removed})`] };
  }
  const steps = stepsOf(file, targets);
  const done: Step[] = [];
  try {
    for (const step of steps) {
      await step.apply();
      done.push(step);
    }
  } catch (err) {
    const undone = await undoAll(done, logger);
    const line = `setup file not applied: the device could not store it (${(err as Error).message})${undone}; it is tried again at the next start`;
    logger.warn(line, { file: path });
    return { applied: null, warnings: [line] };
  }
  const applied = Object.keys(file);
  logger.info('setup file applied', { file: path, fields: applied });
  const removed = await remove(path);
  return { applied, warnings: removed === true ? [] : [`setup file applied, but it could not be removed (${removed}): it is applied again at the next start`] };
}

/** The file's text, null when there is none; throws (with a message for the warning) when it cannot be read or is too large. */
async function readSmall(path: string): Promise<string | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`it cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  try {
    const { size } = await handle.stat();
    if (size > MAX_SETUP_FILE_BYTES) throw new Error(`it is larger than ${MAX_SETUP_FILE_BYTES} bytes`);
    return await handle.readFile('utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code) throw new Error(`it cannot be read (${(err as NodeJS.ErrnoException).code})`);
    throw err;
  } finally {
    await handle.close();
  }
}

/** The validated file; throws with the message naming the bad field. */
function parse(text: string, fleet: SetupFleet<unknown>): SetupFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`it is not valid JSON (${(err as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error('it must be a JSON object');
  const file = validateField(() => validate(json));
  if (file.fleet) validateField(() => fleet.check(file.fleet!), 'fleet: ');
  return file;
}

/** Runs a validation, turning its INVALID_REQUEST into an Error with the same text (it names the field). */
function validateField<T>(check: () => T, prefix = ''): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof AppError && err.code === 'INVALID_REQUEST') throw new Error(`${prefix}${err.message}`);
    throw err;
  }
}

/** The writes of a valid file, in order: settings, fleet, DATA/hostname. */
function stepsOf<Snapshot>(file: SetupFile, targets: SetupTargets<Snapshot>): Step[] {
  const steps: Step[] = [];
  const { settings, fleet, hostnameFile } = targets;
  if (file.apiKey !== undefined || file.deviceId !== undefined || file.hostname !== undefined) {
    const before = { apiKey: settings.value.apiKey, deviceId: settings.value.deviceId, hostname: settings.value.hostname };
    steps.push({
      name: 'settings',
      apply: () => settings.update((draft) => assignIdentity(draft, { apiKey: file.apiKey ?? draft.apiKey, deviceId: file.deviceId ?? draft.deviceId, hostname: file.hostname ?? draft.hostname })),
      undo: () => settings.update((draft) => assignIdentity(draft, before)),
    });
  }
  if (file.fleet !== undefined) {
    const put = file.fleet;
    const before = fleet.snapshot();
    steps.push({ name: 'fleet settings', apply: async () => void (await fleet.replace(put)), undo: () => fleet.restore(before) });
  }
  if (file.hostname !== undefined) {
    const name = file.hostname;
    let before: string | null = null;
    steps.push({
      name: 'hostname file',
      apply: async () => {
        before = await hostnameFile.read();
        await hostnameFile.write(`${name}\n`);
      },
      undo: () => hostnameFile.write(before),
    });
  }
  return steps;
}

function assignIdentity(draft: StoredSettings, identity: Pick<StoredSettings, 'apiKey' | 'deviceId' | 'hostname'>): void {
  draft.apiKey = identity.apiKey;
  draft.deviceId = identity.deviceId;
  if (identity.hostname === undefined) delete draft.hostname;
  else draft.hostname = identity.hostname;
}

/** Undoes `done` in reverse; returns '' or, when an undo failed, the words for the warning. */
async function undoAll(done: Step[], logger: Logger): Promise<string> {
  const failed: string[] = [];
  for (const step of done.reverse()) {
    try {
      await step.undo();
    } catch (err) {
      failed.push(step.name);
      logger.error('setup file: undoing a write failed', { step: step.name, reason: (err as Error).message });
    }
  }
  return failed.length === 0 ? '' : `, and the ${failed.join(' and ')} written could not be undone`;
}

/** Removes the file; true when it is gone, else the reason. */
async function remove(path: string): Promise<true | string> {
  try {
    await fs.rm(path, { force: true });
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  }
}
