// The private folder of the HTTP/1 front's unix sockets (uWS listens there, the front relays to it).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Makes a new folder only this user can enter, for unix sockets: in the temporary folder; else, where that is not
 * writable (a read-only root, EROFS), in $XDG_RUNTIME_DIR, then /dev/shm, both tmpfs with short paths (a unix socket
 * path holds 107 bytes at most, which rules out a deep data dir). Throws the last failure when none can be made.
 */
export function privateSocketFolder(): string {
  let failure: unknown;
  for (const parent of [tmpdir(), process.env.XDG_RUNTIME_DIR, '/dev/shm']) {
    if (!parent) continue;
    try {
      return mkdtempSync(join(parent, 'printproxyd-http-'));
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}
