// The spool's older layout (before 2026-11-29: `<jobId>.json` + `.data`, `.started` and `.sending` marker files) moved,
// at start, to job files and marker lines, so that jobs spooled by the build before an update still print, once.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../settings/atomic-file';
import { spoolFileHead } from './spool-file';

/**
 * What moving one old entry gave: the markers it had; or why it was dropped (unreadable, or inline without its bytes:
 * its files removed); or why it was kept as it is (its job file could not be written: tried again at the next start).
 */
export type MovedEntry =
  | { jobId: string; moved: true; attempts: number; sending: boolean }
  | { jobId: string; moved: false; kept: boolean; reason: string };

/** The old layout's files of a job: its entry first (see removeOld), then its bytes and markers. */
const OLD_SUFFIXES = ['json', 'data', 'started', 'sending'];
const OLD_FILE = new RegExp(`^([^.].*)\\.(${OLD_SUFFIXES.join('|')})$`);

/** The job a file of the old layout belongs to (`<jobId>.json`, `.data`, `.started`, `.sending`; not a temporary), else null. */
export function oldFileJob(name: string): string | null {
  return OLD_FILE.exec(name)?.[1] ?? null;
}

/** The old entries (`<jobId>.json`, not temporaries) among `names`. */
export function oldEntries(names: string[]): string[] {
  return names.filter((n) => n.endsWith('.json') && oldFileJob(n) !== null).map((n) => n.slice(0, -'.json'.length));
}

/**
 * Moves the old entry `jobId` in `dir` to `<jobId><ext>` (written to a temporary, fsynced, renamed; the caller syncs the
 * folder), then removes its old files.
 */
export function moveOldEntry(dir: string, jobId: string, ext: string): MovedEntry {
  const old = (suffix: string) => join(dir, `${jobId}.${suffix}`);
  let entry: { document?: { source?: { kind?: string } } };
  let data: Buffer | null;
  try {
    entry = JSON.parse(readFileSync(old('json'), 'utf8')) as typeof entry;
    data = entry.document?.source?.kind === 'inline' ? readIfThere(old('data')) : null;
    if (entry.document?.source?.kind === 'inline' && !data) throw new Error('its inline document bytes are missing');
  } catch (err) {
    removeOld(old);
    return { jobId, moved: false, kept: false, reason: (err as Error).message };
  }
  try {
    writeFileAtomicSync(join(dir, `${jobId}${ext}`), [spoolFileHead(entry, data), ...(data ? [data] : [])]);
  } catch (err) {
    return { jobId, moved: false, kept: true, reason: (err as Error).message };
  }
  const started = readIfThere(old('started'));
  const moved = { jobId, moved: true as const, attempts: started ? Number.parseInt(started.toString('utf8'), 10) || 0 : 0, sending: readIfThere(old('sending')) !== null };
  removeOld(old);
  return moved;
}

/** The entry first: a crash midway leaves bytes and markers without it, which the next start removes. */
function removeOld(old: (suffix: string) => string): void {
  for (const suffix of OLD_SUFFIXES) rmSync(old(suffix), { force: true });
}

function readIfThere(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}
