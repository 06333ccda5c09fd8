// Which mount a folder is on, and its options, from /proc/self/mountinfo (proc(5)).
import { readFileSync, realpathSync } from 'node:fs';

/** One line of mountinfo: where it is mounted and its per-mount options. */
export interface MountEntry {
  mountPoint: string;
  options: string[];
}

/** Parses mountinfo text; fields 5 (mount point, octal-escaped) and 6 (per-mount options) of each line. */
export function parseMountInfo(text: string): MountEntry[] {
  const entries: MountEntry[] = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    if (fields.length < 6) continue;
    entries.push({ mountPoint: unescapeOctal(fields[4]), options: fields[5].split(',') });
  }
  return entries;
}

/** The entry that holds `path` (an absolute, resolved path): the last-listed longest mount point above it. */
export function mountOf(entries: MountEntry[], path: string): MountEntry | null {
  let best: MountEntry | null = null;
  for (const entry of entries) {
    const mp = entry.mountPoint;
    const inside = mp === '/' || path === mp || path.startsWith(mp.endsWith('/') ? mp : `${mp}/`);
    if (inside && (!best || mp.length >= best.mountPoint.length)) best = entry;
  }
  return best;
}

/** True when the existing folder `dir` sits on a mount with `noexec`; false when mountinfo cannot be read. */
export function isNoexecFolder(dir: string): boolean {
  let text: string;
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return false;
  }
  return mountOf(parseMountInfo(text), realpathSync(dir))?.options.includes('noexec') ?? false;
}

function unescapeOctal(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}
