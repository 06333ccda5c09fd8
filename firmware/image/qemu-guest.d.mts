// Types of qemu-guest.mjs for the TypeScript callers (the image tests).
import type { ChildProcess } from 'node:child_process';
import type { Board } from './boards.mjs';

/** How a guest is started: forwards into and out of it, and where its serial console goes. */
export interface GuestOptions {
  hostfwd?: Array<[number, number]>;
  guestfwd?: Array<[string, number, number]>;
  serial?: 'pipe' | 'inherit';
  stdin?: 'ignore' | 'pipe' | 'inherit';
}
/** Starts qemu for board `b` on `disk`; the child's stdout is the serial console. */
export function startGuest(b: Board, disk: string, options?: GuestOptions): ChildProcess;
/** Why board `b`'s guest cannot boot here, or null. */
export function guestMissing(b: Board): string | null;
