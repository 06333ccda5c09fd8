// The payload appended to an executable (armv7's carrier) reads back byte-exact; files without one are not mistaken for it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendedAssets, appendedPayload } from '../../src/native/embedded-assets';
import { tempDir } from '../helpers/temp-dir';

test('assets appended after an executable read back byte-exact, each by name', () => {
  const files = { 'uws.node': randomBytes(70_001), 'usb.node': randomBytes(3), 'empty.bin': new Uint8Array(0), 'manifest.json': Buffer.from('{"hash":"ab"}') };
  const exe = join(tempDir('printproxyd-assets'), 'exe');
  writeFileSync(exe, Buffer.concat([randomBytes(12_345), appendedPayload(files)]));
  const assets = appendedAssets(exe);
  assert.ok(assets);
  assert.equal(assets.carrier, 'appended');
  for (const [name, bytes] of Object.entries(files)) assert.deepEqual(Buffer.from(assets.get(name)), Buffer.from(bytes), name);
  assert.throws(() => assets.get('pdfium.wasm'), /carries no asset pdfium\.wasm/);
});

test('a file without the trailer, a tiny file, and a trailer whose lengths overrun the file are not assets', () => {
  const dir = tempDir('printproxyd-assets');
  const plain = join(dir, 'plain');
  writeFileSync(plain, randomBytes(4096));
  assert.equal(appendedAssets(plain), null);
  const tiny = join(dir, 'tiny');
  writeFileSync(tiny, 'PPDASSET');
  assert.equal(appendedAssets(tiny), null);
  const overrun = join(dir, 'overrun');
  const payload = appendedPayload({ a: randomBytes(100) });
  writeFileSync(overrun, payload.subarray(50));
  assert.equal(appendedAssets(overrun), null);
});
