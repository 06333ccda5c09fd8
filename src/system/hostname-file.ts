// DATA/hostname: the host name the setup file set, one line, for the boot scripts (run as root) to make the system's.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../settings/atomic-file';

/** The file's name inside the data dir. */
export const HOSTNAME_FILE_NAME = 'hostname';

/**
 * DATA/hostname as a plain one-line file (`<name>\n`): the daemon, which cannot set the system host name itself, writes
 * it atomically when a setup file sets `hostname`; the device's init scripts read it at boot and set the host name from it.
 */
export class HostnameFile {
  /** The file's path. */
  readonly path: string;

  constructor(dataDir: string) {
    this.path = join(dataDir, HOSTNAME_FILE_NAME);
  }

  /** The whole content now (with its newline), or null when there is no file. */
  async read(): Promise<string | null> {
    try {
      return await fs.readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  /** Replaces the content atomically (tmp + fsync + rename); null removes the file. Throws what the file system threw. */
  async write(content: string | null): Promise<void> {
    if (content === null) {
      await fs.rm(this.path, { force: true });
      return;
    }
    await writeFileAtomic(this.path, content, { backup: false });
  }
}
