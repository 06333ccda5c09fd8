// How many PDF render workers the device runs: the `renderWorkers` setting, else the CPU count (1..16).
import os from 'node:os';
import { MAX_RENDER_WORKERS, type StoredSettings } from '../schemas/settings';

/** The CPUs Node may use, read once: Node 24 reads /proc/self/cgroup for it on every call, and the pool asks per job. */
let cpus: number | undefined;

/** Default worker count: the CPUs Node may use, clamped to 1..MAX_RENDER_WORKERS. */
export function defaultRenderWorkers(): number {
  cpus ??= os.availableParallelism();
  return Math.min(MAX_RENDER_WORKERS, Math.max(1, cpus));
}

/** The render pool size the settings ask for: `renderWorkers` when set, else defaultRenderWorkers(). */
export function renderWorkersOf(settings: Pick<StoredSettings, 'renderWorkers'>): number {
  return settings.renderWorkers ?? defaultRenderWorkers();
}
