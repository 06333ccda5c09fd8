// Handing a checked bundle to RAUC: RAUC's service (root) refuses a bundle that another user owns, since that user
// could change it while it is installed. On the device the root helper moves it out of the daemon's reach and gives
// it to root (`seal NAME` on its FIFO); elsewhere (a laptop, the host tests) it is installed where it lies.
import { promises as fs } from 'node:fs';
import { basename, join } from 'node:path';
import { AppError } from '../errors';
import { fifoRequest } from './reboot-request';

/** Resolves with the path RAUC installs `file` from; rejects with SYSTEM_UNAVAILABLE when it cannot be handed over. */
export type SealBundle = (file: string) => Promise<string>;

/** No helper: RAUC gets the file where it lies (it then belongs to the user RAUC runs as, or to root). */
export const inPlace: SealBundle = async (file) => file;

/**
 * The root helper's seal: `seal <name>` written to its FIFO at `requests`, then the bundle awaited in `dir` owned by
 * root, polled every `pollMs` for at most `waitMs`.
 */
export function helperSeal(requests: string, dir: string, { waitMs = 60_000, pollMs = 200 } = {}): SealBundle {
  return async (file) => {
    const name = basename(file);
    await fifoRequest(requests, `seal ${name}`);
    const sealed = join(dir, name);
    const deadline = Date.now() + waitMs;
    for (;;) {
      const stat = await fs.lstat(sealed).catch(() => null);
      if (stat?.isFile() && stat.uid === 0) return sealed;
      if (Date.now() > deadline) throw new AppError('SYSTEM_UNAVAILABLE', `the root helper did not hand ${name} to RAUC within ${waitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  };
}
