// The whole payload of a RAUC verity bundle checked against its signed hashes before RAUC is asked to install it:
// RAUC's own pre-check (perform-pre-check) reads the dm-verity device in 64 KiB chunks and takes a short read for the
// end, so a corrupt block in the middle of a chunk passes it, and RAUC finds the corruption only while writing the slot.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { BundleCheckError } from '../errors';
import { readFully } from './bundle-file';
import { signedManifest } from './bundle-manifest';

const BLOCK = 4096;
const DIGEST = 32;
const READ_BYTES = 1024 * 1024;

/** What the signed manifest says of the bundle's payload (its `[bundle]` section). */
export interface VerityParams {
  rootHash: Buffer;
  salt: Buffer;
  /** Bytes of the hash tree that follows the data. */
  treeBytes: number;
}

/**
 * Checks every byte of `file` (a bundle whose signature RAUC has verified) against its signed hashes: the data blocks
 * against the hash tree it carries, the tree against the manifest's root hash. Throws BundleCheckError('payload') naming
 * the first block that differs; a bundle that is not a verity bundle is refused too (the device takes no other format).
 */
export async function checkBundlePayload(file: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    const { manifest, payloadBytes } = await signedManifest(handle);
    const params = verityParams(manifest);
    const dataBytes = payloadBytes - params.treeBytes;
    if (dataBytes <= 0 || dataBytes % BLOCK !== 0 || params.treeBytes % BLOCK !== 0) {
      throw new BundleCheckError('payload', `the bundle's sizes do not fit its manifest (payload ${payloadBytes} bytes, hash tree ${params.treeBytes})`);
    }
    const levels = await hashLevels(handle, dataBytes, params.salt);
    const tree = Buffer.concat([...levels].reverse());
    const stored = Buffer.alloc(params.treeBytes);
    await readFully(handle, stored, dataBytes);
    if (!tree.equals(stored)) throw new BundleCheckError('payload', `the payload differs from its signed hashes near byte ${firstDifference(levels[0], tree, stored, dataBytes)}`);
    const root = createHash('sha256').update(params.salt).update(levels[levels.length - 1]).digest();
    if (!root.equals(params.rootHash)) throw new BundleCheckError('payload', 'the bundle\'s hash tree does not match the root hash its signature covers');
  } finally {
    await handle.close();
  }
}

/** The `[bundle]` section's verity fields; BundleCheckError('payload') when they are missing (not a verity bundle). */
export function verityParams(manifest: string): VerityParams {
  const section = /^\[bundle\]\s*$([\s\S]*?)(?=^\[|$(?![\s\S]))/m.exec(manifest)?.[1] ?? '';
  const field = (name: string) => new RegExp(`^${name}=(.*)$`, 'm').exec(section)?.[1]?.trim() ?? null;
  const format = field('format');
  const hash = field('verity-hash');
  const salt = field('verity-salt');
  const size = Number(field('verity-size'));
  if (format !== 'verity' || !hash || !/^[0-9a-f]{64}$/i.test(hash) || !salt || !/^([0-9a-f]{2})+$/i.test(salt) || !Number.isSafeInteger(size) || size <= 0) {
    throw new BundleCheckError('payload', `the bundle is not a verity bundle (format ${format ?? 'plain'})`);
  }
  return { rootHash: Buffer.from(hash, 'hex'), salt: Buffer.from(salt, 'hex'), treeBytes: size };
}

/** The hash tree's levels, bottom (the data blocks' digests) first, each padded to whole blocks (dm-verity format 1). */
async function hashLevels(handle: fs.FileHandle, dataBytes: number, salt: Buffer): Promise<Buffer[]> {
  const levels: Buffer[] = [];
  let level = await dataDigests(handle, dataBytes, salt);
  for (;;) {
    levels.push(level);
    if (level.length === BLOCK) return levels;
    level = digestBlocks(level, salt);
  }
}

/** The digests of the data blocks, read a megabyte at a time, packed into zero-padded hash blocks. */
async function dataDigests(handle: fs.FileHandle, dataBytes: number, salt: Buffer): Promise<Buffer> {
  const out = Buffer.alloc(padded((dataBytes / BLOCK) * DIGEST));
  const chunk = Buffer.alloc(READ_BYTES);
  for (let at = 0; at < dataBytes; at += READ_BYTES) {
    const length = Math.min(READ_BYTES, dataBytes - at);
    await readFully(handle, chunk.subarray(0, length), at);
    digestInto(chunk.subarray(0, length), salt, out, (at / BLOCK) * DIGEST);
  }
  return out;
}

/** The digests of `blocks`' 4 KiB blocks, packed into zero-padded hash blocks. */
function digestBlocks(blocks: Buffer, salt: Buffer): Buffer {
  const out = Buffer.alloc(padded((blocks.length / BLOCK) * DIGEST));
  digestInto(blocks, salt, out, 0);
  return out;
}

function digestInto(blocks: Buffer, salt: Buffer, out: Buffer, offset: number): void {
  for (let at = 0; at < blocks.length; at += BLOCK) {
    createHash('sha256').update(salt).update(blocks.subarray(at, at + BLOCK)).digest().copy(out, offset + (at / BLOCK) * DIGEST);
  }
}

function padded(bytes: number): number {
  return Math.max(BLOCK, Math.ceil(bytes / BLOCK) * BLOCK);
}

/** Where the computed `tree` (its `bottom` level last) first differs from the stored one: the data byte a bottom digest covers, else the tree's byte. */
function firstDifference(bottom: Buffer, tree: Buffer, stored: Buffer, dataBytes: number): number {
  const bottomAt = stored.length - bottom.length;
  for (let i = 0; i + DIGEST <= bottom.length; i += DIGEST) {
    if (!bottom.subarray(i, i + DIGEST).equals(stored.subarray(bottomAt + i, bottomAt + i + DIGEST))) return (i / DIGEST) * BLOCK;
  }
  for (let i = 0; i < Math.min(tree.length, stored.length); i += 1) if (tree[i] !== stored[i]) return dataBytes + i;
  return dataBytes;
}
