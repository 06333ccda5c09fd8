// CPU time of a process from /proc, for the benches' per-request and per-job figures.
import { readFileSync } from 'node:fs';

/** User and system CPU ms of `pid` so far (its threads included), or with `children` of its reaped children (/proc stat). */
export function cpuSplitMs(pid: number | 'self', children = false): { user: number; system: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime, stime, cutime, cstime are fields 14 to 17 of /proc/PID/stat, in clock ticks (100 per second on Linux)
  const [user, system] = children ? [fields[13], fields[14]] : [fields[11], fields[12]];
  return { user: Number(user) * 10, system: Number(system) * 10 };
}

/** User + system CPU ms of `pid` so far (its threads included), or with `children` of its reaped children. */
export function cpuMs(pid: number | 'self', children = false): number {
  const { user, system } = cpuSplitMs(pid, children);
  return user + system;
}
