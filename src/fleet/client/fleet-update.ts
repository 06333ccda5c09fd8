// `printproxyd fleet update`: one release to many devices in waves (device-image.md "Updates", fleet side). Each
// device gets POST /system/update with an idempotency key of its own (the same at every run, so a rerun never installs
// twice), then is followed through GET /system/update until its update ends; more than `maxFailures` failed stops the
// rollout before the next wave. One line per device is printed as it goes.
import { FleetClientError } from '../../errors';
import type { FleetRequest, RequestOptions } from './fleet-client';
import type { FleetAnswer } from './pending-answers';

/** The release each device installs: the URL form of POST /system/update. */
export interface FleetUpdate {
  url: string;
  sha256: string;
  size: number;
  version: string;
  reboot: 'idle' | 'now' | 'manual';
}

/** How the rollout goes: waves (`1,10%,100%`: cumulative counts or shares), failures tolerated, how long to follow one device. */
export interface RolloutOptions {
  waves: string;
  maxFailures: number;
  /** Deadline of one request, in ms. */
  requestMs: number;
  /** How long one device may take from its 202 to the end of its update, in ms (download, install, reboot, health gate). */
  deviceMs: number;
  /** Pause between two looks at a device's update, in ms. */
  pollMs: number;
}

/** What the rollout needs from outside: the fleet's requests, a pause, the output, the clock (ms). */
export interface RolloutDeps {
  request: (deviceId: string, request: FleetRequest, options: RequestOptions) => Promise<FleetAnswer>;
  wait: (ms: number) => Promise<void>;
  line: (text: string) => void;
  now: () => number;
}

/** How each device ended: `succeeded`, or why not. */
export interface RolloutResult {
  succeeded: string[];
  failed: string[];
  notUpdated: string[];
}

/** The phases an update ends in (GET /system/update). */
const FINAL = new Set(['succeeded', 'rolled-back', 'failed']);

/**
 * The devices each wave reaches, as cumulative counts of `total`: `1,10%,100%` over 50 devices is [1, 5, 50]. A share
 * rounds up, every wave reaches at least one more device than the last, and a last wave short of all gets one more.
 * Throws FLEET_BAD_ARGUMENT for a malformed list.
 */
export function waveSizes(spec: string, total: number): number[] {
  const sizes: number[] = [];
  for (const part of spec.split(',').map((p) => p.trim())) {
    const share = /^(\d+(?:\.\d+)?)%$/.exec(part);
    const count = /^\d+$/.test(part) ? Number(part) : share ? Math.ceil((Number(share[1]) / 100) * total) : NaN;
    if (!Number.isFinite(count) || count < 1) throw new FleetClientError('FLEET_BAD_ARGUMENT', `--waves: ${part} is neither a count nor a share like 10%`);
    const reach = Math.min(total, Math.max(count, (sizes.at(-1) ?? 0) + 1));
    if (reach > (sizes.at(-1) ?? 0)) sizes.push(reach);
  }
  if ((sizes.at(-1) ?? 0) < total) sizes.push(total);
  return sizes;
}

/** Rolls `update` out to `devices` in waves; resolves with how each ended. */
export async function rollOut(deps: RolloutDeps, devices: string[], update: FleetUpdate, options: RolloutOptions): Promise<RolloutResult> {
  const result: RolloutResult = { succeeded: [], failed: [], notUpdated: [] };
  let start = 0;
  for (const end of waveSizes(options.waves, devices.length)) {
    const wave = devices.slice(start, end);
    deps.line(`wave of ${wave.length}: ${wave.join(' ')}`);
    const ends = await Promise.all(wave.map((device) => updateOne(deps, device, update, options)));
    wave.forEach((device, i) => (ends[i] ? result.succeeded : result.failed).push(device));
    start = end;
    if (result.failed.length > options.maxFailures && start < devices.length) {
      result.notUpdated = devices.slice(start);
      deps.line(`stopped: ${result.failed.length} failed, more than --max-failures ${options.maxFailures}; not updated: ${result.notUpdated.join(' ')}`);
      break;
    }
  }
  return result;
}

/** One device: its request, then its update followed to the end; true when it succeeded. */
async function updateOne(deps: RolloutDeps, device: string, update: FleetUpdate, options: RolloutOptions): Promise<boolean> {
  const headers = { 'Idempotency-Key': `fleet-update-${update.version}-${device}` };
  let accepted: FleetAnswer;
  try {
    accepted = await deps.request(device, { method: 'POST', path: '/system/update', headers, body: update }, { deadlineMs: options.requestMs });
  } catch (err) {
    deps.line(`${device} failed: ${message(err)}`);
    return false;
  }
  const content = contentOf(accepted);
  if (accepted.status < 200 || accepted.status > 299 || typeof content?.id !== 'string') {
    deps.line(`${device} refused: ${accepted.status} ${String(messageOf(accepted))}`);
    return false;
  }
  deps.line(`${device} accepted: update ${content.id} to ${update.version}`);
  const final = FINAL.has(String(content.phase)) ? content : await follow(deps, device, content.id, options);
  if (final === null) {
    deps.line(`${device} failed: no end of update ${content.id} within ${Math.round(options.deviceMs / 1000)} s`);
    return false;
  }
  deps.line(`${device} ${final.phase}${final.error ? `: ${final.error}` : ''}`);
  return final.phase === 'succeeded';
}

/** Looks at the device's update until it ends or `deviceMs` passed; a device rebooting does not answer meanwhile. */
async function follow(deps: RolloutDeps, device: string, id: string, options: RolloutOptions): Promise<Record<string, any> | null> {
  const deadline = deps.now() + options.deviceMs;
  while (deps.now() < deadline) {
    await deps.wait(options.pollMs);
    const answer = await deps.request(device, { method: 'GET', path: '/system/update' }, { deadlineMs: options.requestMs }).catch(() => null);
    const content = answer === null ? null : contentOf(answer);
    if (content?.id === id && FINAL.has(String(content.phase))) return content;
  }
  return null;
}

function contentOf(answer: FleetAnswer): Record<string, any> | null {
  const body = answer.body as { result?: { content?: unknown } } | null;
  const content = body?.result?.content;
  return content !== null && typeof content === 'object' ? (content as Record<string, any>) : null;
}

function messageOf(answer: FleetAnswer): unknown {
  const body = answer.body as { result?: { message?: unknown; content?: { message?: unknown } } } | null;
  return body?.result?.content?.message ?? body?.result?.message ?? '';
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
