// The health gate's reason for a rollback: a text file the root gate writes when the new slot failed it.
import { promises as fs } from 'node:fs';

/** Reads the gate's reason; null when there is none written since `sinceMs` (ms since the epoch). */
export type GateReport = (sinceMs: number) => Promise<string | null>;

/** The GateReport of the file at `path` (`--gate-report`, default /data/rauc/gate-failure); an older file is a past rollback's. */
export function gateReportFile(path: string): GateReport {
  return async (sinceMs) => {
    try {
      const stat = await fs.stat(path);
      if (stat.mtimeMs < sinceMs) return null;
      const text = (await fs.readFile(path, 'utf8')).replace(/\s+/g, ' ').trim();
      return text === '' ? null : text.slice(0, 500);
    } catch {
      return null;
    }
  };
}
