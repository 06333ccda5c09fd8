// The fleet command's real I/O: files through node:fs, stdout/stderr of the process, the broker, SIGINT/SIGTERM.
import { readFile } from 'node:fs/promises';
import { FleetClient } from './fleet-client';
import type { FleetCommandIo } from './fleet-command';

/** FleetCommandIo over the process. */
export function processFleetIo(): FleetCommandIo {
  return {
    readFile: async (path) => readFile(path),
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    connect: (options) => FleetClient.connect(options),
    interrupted: () => new Promise((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }),
    wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
}
