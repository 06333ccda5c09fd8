// Files carried inside the single executable (the natives, pdfium.wasm, their manifest): a payload appended to the
// executable, read with read(2) when needed. Not SEA assets: those lie in a segment mapped at exec, and read-ahead
// made most of them resident (and counted in the daemon's RSS) although only the first start and first render read them.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** Named files inside this executable. */
export interface EmbeddedAssets {
  /** Which carrier holds them: the payload appended to the executable. */
  readonly carrier: 'appended';
  /** The bytes of asset `name`; throws when the executable has no such asset. */
  get(name: string): Uint8Array;
}

/** Name of the asset that lists the natives with their sizes and SHA-256 (a NativeManifest). */
export const MANIFEST_ASSET = 'manifest.json';

/** What the firmware build records about the natives it embedded. */
export interface NativeManifest {
  /** SHA-256 over every native, hex: names the cache folder they are extracted to. */
  hash: string;
  /** Native file name → size in bytes. */
  natives: Record<string, number>;
}

/** Last bytes of an executable carrying an appended payload: index length and payload length (u32 LE), then this. */
const APPENDED_MAGIC = Buffer.from('PPDASSET', 'latin1');
const FOOTER = 8 + APPENDED_MAGIC.length;

let cached: EmbeddedAssets | null | undefined;

/** The assets of the running executable, or null when it is a plain `node` running a script; looked up once. */
export function embeddedAssets(): EmbeddedAssets | null {
  if (cached === undefined) cached = appendedAssets(process.execPath);
  return cached;
}

/** Reads the payload index appended to `file`; null when the file carries none. */
export function appendedAssets(file: string): EmbeddedAssets | null {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size < FOOTER) return null;
    const footer = readAt(fd, size - FOOTER, FOOTER);
    if (!footer.subarray(8).equals(APPENDED_MAGIC)) return null;
    const indexLength = footer.readUInt32LE(0);
    const payloadLength = footer.readUInt32LE(4);
    const payloadStart = size - FOOTER - indexLength - payloadLength;
    if (payloadStart < 0) return null;
    const index = JSON.parse(readAt(fd, size - FOOTER - indexLength, indexLength).toString('utf8')) as Record<string, [number, number]>;
    return {
      carrier: 'appended',
      get(name) {
        const entry = index[name];
        if (!entry) throw new Error(`the executable carries no asset ${name}`);
        const again = openSync(file, 'r');
        try {
          return readAt(again, payloadStart + entry[0], entry[1]);
        } finally {
          closeSync(again);
        }
      },
    };
  } finally {
    closeSync(fd);
  }
}

/** The bytes to append to an executable so that appendedAssets() finds `files` (name → bytes) in it. */
export function appendedPayload(files: Record<string, Uint8Array>): Buffer {
  const index: Record<string, [number, number]> = {};
  let offset = 0;
  for (const [name, bytes] of Object.entries(files)) {
    index[name] = [offset, bytes.length];
    offset += bytes.length;
  }
  const indexBytes = Buffer.from(JSON.stringify(index), 'utf8');
  const footer = Buffer.alloc(8);
  footer.writeUInt32LE(indexBytes.length, 0);
  footer.writeUInt32LE(offset, 4);
  return Buffer.concat([...Object.values(files), indexBytes, footer, APPENDED_MAGIC]);
}

function readAt(fd: number, position: number, length: number): Buffer {
  const out = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, out, done, length - done, position + done);
    if (n === 0) throw new Error(`the executable ends before its embedded assets (${done} of ${length} bytes)`);
    done += n;
  }
  return out;
}
