// The fleet epoch (fleet.md): one more at every successful connection, persisted in DATA/fleet/epoch.json.
import { join } from 'node:path';
import { readWithFallback, writeFileAtomic } from '../settings/atomic-file';

/** Holds the epoch of the last successful connection; a failed write keeps counting in memory and says so. */
export class FleetEpoch {
  private value: number;
  /** True while the last committed epoch could not be written (GET /status warns). */
  notStored = false;

  constructor(private readonly dir: string) {
    this.value = readWithFallback(this.file, parseEpoch)?.value ?? 0;
  }

  /** The epoch of the last successful connection (0 before the first). */
  get current(): number {
    return this.value;
  }

  /** The epoch the next connection will carry (its Will and birth). */
  get next(): number {
    return this.value + 1;
  }

  /** Makes `epoch` current after a successful connection: written atomically first; on failure current in memory anyway. */
  async commit(epoch: number): Promise<void> {
    try {
      await writeFileAtomic(this.file, `${JSON.stringify({ epoch })}\n`, { backup: true });
      this.notStored = false;
    } catch {
      this.notStored = true;
    }
    this.value = Math.max(this.value, epoch);
  }

  private get file(): string {
    return join(this.dir, 'epoch.json');
  }
}

function parseEpoch(text: string): number {
  const { epoch } = JSON.parse(text) as { epoch: unknown };
  if (typeof epoch !== 'number' || !Number.isSafeInteger(epoch) || epoch < 0) throw new Error('bad epoch');
  return epoch;
}
