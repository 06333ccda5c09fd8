// Handing a checked bundle to RAUC through the root helper's FIFO (src/system/bundle-seal.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { constants, existsSync, mkdirSync, openSync, renameSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { AppError } from '../../src/errors';
import { helperSeal, inPlace } from '../../src/system/bundle-seal';
import { tempDir } from '../helpers/temp-dir';

test('helperSeal asks the helper on its FIFO and resolves with the bundle where the helper put it', async (t) => {
  if (process.getuid?.() !== 0) return t.skip('the sealed bundle must belong to root: run as root');
  const dir = tempDir('seal');
  const fifo = join(dir, 'system-requests');
  execFileSync('mkfifo', [fifo]);
  const sealedDir = join(dir, 'sealed');
  mkdirSync(sealedDir);
  const bundle = join(dir, 'bundle-u1.raucb');
  writeFileSync(bundle, 'bundle bytes');
  // the helper's side: one request line, then the move out of the daemon's folder
  // opened read-write, as the helper does: open at once, and no end of file when a writer closes
  // (a libuv pipe, not a file stream, whose pending read would hold the process at exit)
  const input = new net.Socket({ fd: openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK), readable: true, writable: false });
  const lines = createInterface({ input });
  const requests: string[] = [];
  lines.on('line', (line) => {
    requests.push(line);
    const name = line.replace(/^seal /, '');
    renameSync(join(dir, name), join(sealedDir, name));
  });
  const sealed = await helperSeal(fifo, sealedDir, { pollMs: 5 })(bundle);
  lines.close();
  input.destroy();
  assert.deepEqual(requests, ['seal bundle-u1.raucb']);
  assert.equal(sealed, join(sealedDir, 'bundle-u1.raucb'));
  assert.ok(!existsSync(bundle));
});

test('helperSeal fails at once when no helper reads the FIFO; inPlace installs where the file lies', async () => {
  const dir = tempDir('seal-none');
  const fifo = join(dir, 'system-requests');
  execFileSync('mkfifo', [fifo]);
  await assert.rejects(helperSeal(fifo, dir)(join(dir, 'b.raucb')), (err: unknown) => err instanceof AppError && /not listening/.test(err.message));
  assert.equal(await inPlace('/data/x.raucb'), '/data/x.raucb');
});
