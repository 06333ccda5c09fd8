// The payload check before RAUC installs: a bundle RAUC made passes; a byte flipped anywhere in the data or the hash
// tree, a bundle cut short, a plain (non-verity) bundle and a tail that is not a signature are each refused, naming the
// check `payload`.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { BundleCheckError } from '../../src/errors';
import { checkBundlePayload } from '../../src/system/bundle-payload';
import { tempDir } from '../helpers/temp-dir';
import { verityBundle } from '../fixtures/verity-bundle';

const dir = tempDir('bundle-payload');
const RAUC_MADE = join(__dirname, '..', 'fixtures', 'bundles', 'rauc-1.8-verity.raucb');

function written(name: string, bytes: Buffer): string {
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

function flipped(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] ^= 0x01;
  return copy;
}

/** Where a fixture bundle's parts start: [data, tree, signature]. */
function parts(bytes: Buffer): { tree: number; signature: number } {
  const signature = bytes.length - 8 - Number(bytes.readBigUInt64BE(bytes.length - 8));
  const manifest = bytes.subarray(signature).toString('latin1');
  const treeBytes = Number(/verity-size=(\d+)/.exec(manifest)![1]);
  return { tree: signature - treeBytes, signature };
}

const refusedPayload = (pattern: RegExp) => (err: unknown) => err instanceof BundleCheckError && err.check === 'payload' && pattern.test(err.message);

test('a bundle made by RAUC (verity format) passes the check', async () => {
  await checkBundlePayload(RAUC_MADE);
});

test('a byte flipped in the data of a RAUC-made bundle is refused, and the byte is located', async () => {
  const bytes = readFileSync(RAUC_MADE);
  const { tree } = parts(bytes);
  const at = Math.floor(tree / 2) + 1234;
  await assert.rejects(checkBundlePayload(written('rauc-data.raucb', flipped(bytes, at))), refusedPayload(new RegExp(`near byte ${at - (at % 4096)}\\b`)));
});

test('a byte flipped anywhere in a bundle with a two-level hash tree is refused: first block, middle, last block, each tree level', async () => {
  const bytes = verityBundle({ blocks: 300 });
  await checkBundlePayload(written('good.raucb', bytes));
  const { tree, signature } = parts(bytes);
  const places = [0, 4095, Math.floor(tree / 2), tree - 1, tree, tree + 4096 + 17, signature - 1];
  for (const at of places) {
    await assert.rejects(checkBundlePayload(written(`flip-${at}.raucb`, flipped(bytes, at))), refusedPayload(/differs from its signed hashes|root hash/), `byte ${at}`);
  }
});

test('a manifest whose root hash is not the tree\'s is refused', async () => {
  const bytes = verityBundle();
  const text = bytes.toString('latin1');
  const at = text.indexOf('verity-hash=') + 'verity-hash='.length;
  const changed = Buffer.from(bytes);
  changed[at] = changed[at] === 0x30 ? 0x31 : 0x30;
  await assert.rejects(checkBundlePayload(written('root.raucb', changed)), refusedPayload(/root hash/));
});

test('a bundle cut short, a tail that is no signature, and a bundle without verity fields are refused', async () => {
  const bytes = verityBundle();
  const { tree } = parts(bytes);
  await assert.rejects(checkBundlePayload(written('short.raucb', bytes.subarray(0, tree))), refusedPayload(/cannot be checked|do not fit/));
  await assert.rejects(checkBundlePayload(written('noise.raucb', Buffer.alloc(64 * 1024, 7))), refusedPayload(/cannot be checked/));
  const plain = Buffer.from(bytes.toString('latin1').replace('format=verity', 'format=plain '), 'latin1');
  await assert.rejects(checkBundlePayload(written('plain.raucb', plain)), refusedPayload(/not a verity bundle/));
});
