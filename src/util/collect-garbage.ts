// A full garbage collection on demand, so that the backing stores of large request bodies go back to the system at once.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | null | undefined;
let pending = false;

/**
 * Schedules one full collection for the next turn (several calls in a turn share it). Node 24 frees the memory of
 * dropped 64 MiB bodies lazily, so three of them in a row could pass the device's 256 MiB bound; a collection after
 * each large body keeps the peak at one body's worth.
 */
export function collectGarbageSoon(): void {
  if (pending) return;
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
