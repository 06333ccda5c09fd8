// CPU time of a process from /proc, for the benches' per-request and per-job figures.
import { readFileSync } from 'node:fs';

/** User + system CPU ms of `pid` so far (its threads included), or with `children` of its reaped children (/proc stat). */
export function cpuMs(pid: number | 'self', children = false): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  // utime, stime, cutime, cstime are fields 14 to 17 of /proc/PID/stat, in clock ticks (100 per second on Linux)
  const [user, system] = children ? [fields[13], fields[14]] : [fields[11], fields[12]];
  return (Number(user) + Number(system)) * 10;
}
