// The device's slots as RAUC reports them: `rauc status --detailed --output-format=json`, run through an injected runner.
import { AppError } from '../errors';
import type { CommandRunner } from '../device/netbird-status';
import type { SlotState, SystemSlot, SystemStatus } from '../schemas/system';

/** The arguments of the status call (RAUC's D-Bus service answers them to an unprivileged user). */
export const RAUC_STATUS_ARGS = ['status', '--detailed', '--output-format=json'];

/** The slot class of the root filesystems (`[slot.rootfs.N]` in system.conf); other classes are not reported. */
const ROOTFS_CLASS = 'rootfs';

const STATES: readonly SlotState[] = ['booted', 'active', 'inactive'];

/** What GET /system answers on a machine without RAUC (a laptop under `npm start`). */
export const NO_RAUC: SystemStatus = Object.freeze({ bootSlot: null, slots: [], update: null }) as SystemStatus;

/** Collaborators of the reader. */
export interface RaucStatusDeps {
  /** The rauc executable: a name looked up in PATH, or a path (`--rauc`). */
  command: string;
  run: CommandRunner;
  /** Longest wait for an answer, in ms. */
  timeoutMs: number;
}

/** Reads the slots from RAUC; calls made while one runs share its answer. */
export class RaucStatus {
  private running: Promise<SystemStatus> | null = null;

  constructor(private readonly deps: RaucStatusDeps) {}

  /**
   * The slots now: NO_RAUC when the command does not exist, else RAUC's answer parsed; rejects with SYSTEM_UNAVAILABLE
   * (503) when the command fails, times out or prints something that is not its status JSON.
   */
  read(): Promise<SystemStatus> {
    this.running ??= this.ask().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async ask(): Promise<SystemStatus> {
    let out: string;
    try {
      out = await this.deps.run(this.deps.command, RAUC_STATUS_ARGS, this.deps.timeoutMs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return NO_RAUC;
      throw new AppError('SYSTEM_UNAVAILABLE', `${this.deps.command} status failed: ${firstLines(err)}`, { cause: err });
    }
    let json: unknown;
    try {
      json = JSON.parse(out);
    } catch {
      throw new AppError('SYSTEM_UNAVAILABLE', `${this.deps.command} status printed no JSON: ${out.trim().slice(0, 200)}`);
    }
    return parseRaucStatus(json);
  }
}

/**
 * Maps RAUC's status JSON (1.13: `booted`, and `slots` as an array of one-key objects `{ "<name>": { class, bootname,
 * state, boot_status, slot_status: { bundle: { version }, installed: { timestamp } } } }`) to GET /system; only slots of
 * class rootfs, by name. Throws SYSTEM_UNAVAILABLE naming what is missing or unexpected.
 */
export function parseRaucStatus(json: unknown): SystemStatus {
  const root = objectOf(json, 'the answer');
  if (!Array.isArray(root.slots)) throw unexpected('slots is not an array');
  const slots = root.slots
    .flatMap((entry: unknown) => Object.entries(objectOf(entry, 'a slot entry')))
    .filter(([, raw]) => objectOf(raw, 'a slot').class === ROOTFS_CLASS)
    .map(([name, raw]) => slotOf(name, objectOf(raw, 'a slot')))
    .sort((a, b) => a.name.localeCompare(b.name));
  const booted = slots.find((slot) => slot.state === 'booted');
  // `booted` is what the kernel command line named (rauc.slot=): a bootname, or a slot name
  const named = typeof root.booted === 'string' ? slots.find((slot) => slot.bootname === root.booted || slot.name === root.booted) : undefined;
  return { bootSlot: (booted ?? named)?.bootname ?? null, slots, update: null };
}

function slotOf(name: string, raw: Record<string, unknown>): SystemSlot {
  const state = raw.state;
  if (!STATES.includes(state as SlotState)) throw unexpected(`${name} has state ${JSON.stringify(state)}`);
  const status = optionalObject(raw.slot_status);
  const bundle = optionalObject(status.bundle);
  const installed = optionalObject(status.installed);
  return {
    name,
    bootname: stringOrNull(raw.bootname),
    state: state as SlotState,
    version: stringOrNull(bundle.version),
    installedAt: stringOrNull(installed.timestamp),
    good: raw.boot_status === 'good' ? true : raw.boot_status === 'bad' ? false : null,
  };
}

function objectOf(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw unexpected(`${what} is not an object`);
  return value as Record<string, unknown>;
}

function optionalObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function unexpected(detail: string): AppError {
  return new AppError('SYSTEM_UNAVAILABLE', `rauc status answered unexpected JSON: ${detail}`);
}

/** The start of a failed command's message (Node puts its stderr there), on one line. */
function firstLines(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/\s+/g, ' ').trim().slice(0, 300);
}
