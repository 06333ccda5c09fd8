// Asks the root helper to reboot: the line `reboot\n` written to its FIFO (the daemon is not root).
import { constants, promises as fs } from 'node:fs';
import { AppError } from '../errors';

/** Asks for a reboot; resolves once the request was written, rejects with REBOOT_FAILED when nobody can take it. */
export type RequestReboot = () => Promise<void>;

/**
 * The RequestReboot of the FIFO (or file) at `path` (`--system-requests`): opened for writing without blocking and
 * without creating it, so a FIFO without its helper reading fails at once (ENXIO) instead of hanging.
 */
export function fifoRebootRequest(path: string): RequestReboot {
  return () => fifoRequest(path, 'reboot');
}

/** Writes one request line to the root helper's FIFO at `path`; rejects with REBOOT_FAILED when nobody can take it. */
export async function fifoRequest(path: string, request: string): Promise<void> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NONBLOCK);
  } catch (err) {
    throw new AppError('REBOOT_FAILED', `the root helper is not listening at ${path}: ${(err as Error).message}`, { cause: err });
  }
  try {
    await handle.write(`${request}\n`);
  } catch (err) {
    throw new AppError('REBOOT_FAILED', `the request "${request}" could not be written to ${path}: ${(err as Error).message}`, { cause: err });
  } finally {
    await handle.close();
  }
}
