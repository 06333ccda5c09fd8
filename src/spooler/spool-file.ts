// One spooled job on disk: its entry as one JSON line, then its document bytes, in one file written atomically.
import { closeSync, fstatSync, openSync, promises as fs, readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { writeFileAtomic } from '../settings/atomic-file';

/** Where a job file's document bytes are: after the entry line, `bytes` long (null: the job has none, a URL document). */
export interface SpoolData {
  offset: number;
  bytes: number | null;
}

/** A job file read back at start: its entry (as stored), where its bytes are, and its size. */
export interface SpoolFileHead {
  entry: Record<string, unknown>;
  data: SpoolData;
  size: number;
}

/** Bytes of a job file read first for its entry line; a longer line (a long URL) is read on, twice as much each time. */
const FIRST_READ_BYTES = 4096;
const NEWLINE = 0x0a;
/** Synced before the rename; the caller syncs the folder. */
const UNSYNCED_FOLDER = { backup: false, syncFolder: false };

/** The first line of a job file: `entry` with the length of its document bytes (`data`: null when it has none). */
export function spoolFileHead(entry: object, data: Uint8Array | null): Buffer {
  return Buffer.from(`${JSON.stringify({ ...entry, dataBytes: data?.byteLength ?? null })}\n`);
}

/**
 * Writes `head` (spoolFileHead), then `data`, to `file` atomically (temporary, fsync, rename): a crash leaves the whole
 * file or none. Resolves with where the bytes are.
 */
export async function writeSpoolFile(file: string, head: Buffer, data: Uint8Array | null): Promise<SpoolData> {
  await writeFileAtomic(file, (out) => writePieces(out, data ? [head, data] : [head]), UNSYNCED_FOLDER);
  return { offset: head.byteLength, bytes: data?.byteLength ?? null };
}

/** The entry line and size of a job file; throws (a reason) when it has no whole entry line or its bytes are cut short. */
export function readSpoolFileHead(file: string): SpoolFileHead {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const { head, end } = readEntryLine(fd, size);
    const { dataBytes, ...entry } = JSON.parse(head.toString('utf8', 0, end)) as { dataBytes?: unknown } & Record<string, unknown>;
    const bytes = typeof dataBytes === 'number' ? dataBytes : null;
    if (size !== end + 1 + (bytes ?? 0)) throw new Error(`its document bytes are cut short (${size - end - 1} of ${bytes ?? 0})`);
    return { entry, data: { offset: end + 1, bytes }, size };
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a job file up to its first newline (`end`): read 4 KiB first, then twice as much until it is found. */
function readEntryLine(fd: number, size: number): { head: Buffer; end: number } {
  let head = Buffer.alloc(0);
  for (let want = Math.min(size, FIRST_READ_BYTES); ; want = Math.min(size, want * 2)) {
    const more = Buffer.allocUnsafe(want - head.length);
    const read = readSync(fd, more, 0, more.length, head.length);
    const from = head.length;
    head = Buffer.concat([head, more.subarray(0, read)]);
    const end = head.indexOf(NEWLINE, from);
    if (end >= 0) return { head, end };
    if (read < more.length || head.length >= size) throw new Error('its entry line is incomplete');
  }
}

/** The document bytes of a job file, in a buffer of their own (so a worker can be handed them without a copy). */
export async function readSpoolFileData(file: string, data: SpoolData): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const out = Buffer.allocUnsafeSlow(data.bytes ?? 0);
    const { bytesRead } = await handle.read(out, 0, out.length, data.offset);
    if (bytesRead !== out.length) throw new Error(`${file}: the document bytes are cut short (${bytesRead} of ${out.length})`);
    return out;
  } finally {
    await handle.close();
  }
}

/** Writes `pieces` one after the other (one writev; what it left, if anything, after it). */
async function writePieces(out: FileHandle, pieces: Uint8Array[]): Promise<void> {
  const total = pieces.reduce((n, p) => n + p.byteLength, 0);
  const { bytesWritten } = await out.writev(pieces);
  if (bytesWritten < total) await out.writeFile(Buffer.concat(pieces).subarray(bytesWritten));
}
