// The health gate's files the daemon reads: its reason for a rollback, and the slot still on its trial boot.
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

/** The slot on its trial boot (named by RAUC's post-install handler), or null once the gate passed it (or none is). */
export type TrialSlot = () => Promise<string | null>;

/** The TrialSlot of the file at `path` (beside the gate report: /data/rauc/trial); unreadable counts as none. */
export function trialSlotFile(path: string): TrialSlot {
  return async () => {
    try {
      return (await fs.readFile(path, 'utf8')).trim() || null;
    } catch {
      return null;
    }
  };
}
