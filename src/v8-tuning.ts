// V8 flags for a small device, set at start before the daemon allocates (and before its worker threads start).
import { setFlagsFromString } from 'node:v8';

/**
 * The default: V8's small-device mode, a heap kept close to its live size (bench/v8-flags.ts: RSS after a burst 172-174
 * MiB against 250-281; bench/soak.ts: a major GC every ~40-90 s instead of ~150 s). It costs CPU on busy JS paths:
 * ZPL jobs at saturation 0.60-0.77x jobs/s, PDF renders 0.90-0.96x. PRINTPROXY_V8_FLAGS='' gives V8's defaults back.
 */
export const DEFAULT_V8_FLAGS = '--optimize-for-size';

/** Applies PRINTPROXY_V8_FLAGS (space-separated V8 flags; empty for V8's own defaults), or DEFAULT_V8_FLAGS; returns what was set. */
export function applyV8Flags(env: NodeJS.ProcessEnv): string[] {
  const flags = (env.PRINTPROXY_V8_FLAGS ?? DEFAULT_V8_FLAGS).split(/\s+/).filter(Boolean);
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}
