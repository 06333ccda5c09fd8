// Resident memory of a process from /proc, for the benches' RSS figures.
import { readFileSync } from 'node:fs';

/** A `kB` field of /proc/PID/status (VmRSS now, VmHWM at its peak), in MiB. */
function statusMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
}

/** Resident set of `pid` now, in MiB. */
export function rssMiB(pid: number): number {
  return statusMiB(pid, 'VmRSS');
}

/** Resident set of `pid` now and its anonymous and file-backed parts (RssAnon, RssFile of /proc/PID/status), in MiB. */
export function rssPartsMiB(pid: number): { rss: number; anon: number; file: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) / 1024;
  return { rss: field('VmRSS'), anon: field('RssAnon'), file: field('RssFile') };
}

/** Peak resident set of `pid` so far, in MiB. */
export function peakRssMiB(pid: number): number {
  return statusMiB(pid, 'VmHWM');
}

/** The middle value (the upper one of an even count). */
export function median(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
}
