// A full garbage collection on demand, so that the backing stores of large request bodies go back to the system at once.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;
let pending = false;
/** Bytes of bodies dropped since the last collection. */
let owed = 0;

/**
 * Bytes of dropped bodies that make a collection worth its cost. A full collection takes 10-20 ms of CPU (main thread and
 * V8's helpers): after every 100 KB IPP document it tripled a job's CPU; V8 collects smaller garbage on its own.
 */
export const COLLECT_AFTER_BYTES = 16 * 1024 * 1024;

/**
 * Counts `bytes` of a body just dropped; once COLLECT_AFTER_BYTES are owed, schedules one full collection for the next
 * turn (several calls in a turn share it). Node 24 frees the memory of dropped 64 MiB bodies lazily, so three of them in
 * a row could pass the device's 256 MiB bound; a collection after each large body keeps the peak at one body's worth.
 */
export function collectGarbageSoon(bytes: number): void {
  owed += bytes;
  if (pending || owed < COLLECT_AFTER_BYTES) return;
  owed = 0;
  pending = true;
  setImmediate(() => {
    pending = false;
    collector()?.();
  });
}

function collector(): (() => void) | null {
  if (gc !== undefined) return gc;
  try {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  } catch {
    gc = null;
  }
  return gc;
}
