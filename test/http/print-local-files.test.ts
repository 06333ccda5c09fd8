// Local-file content through the daemon: files/ prints byte-exact, a share mounted under --share-root prints, and
// no share setting opens the data dir, /proc or devices.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startDaemon, tempDataDir, type DaemonHandle } from '../helpers/daemon-process';
import { tempDir } from '../helpers/temp-dir';

const shareRoot = tempDir('share-root');
const mounted = join(shareRoot, 'nas');
let d: DaemonHandle;
let dataDir: string;
let emulator: ZplPrinterEmulator;
let path: string;

before(async () => {
  mkdirSync(mounted);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mounted]);
  writeFileSync(join(mounted, 'from-share.zpl'), '^XA^FDshare^FS^XZ');
  dataDir = tempDataDir();
  d = await startDaemon({ dataDir, args: ['--share-root', shareRoot] });
  emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' } } });
  assert.equal(added.status, 201);
  path = added.body.result.content.path;
});

after(async () => {
  await d.stop();
  await emulator.stop();
  execFileSync('umount', [mounted]);
});

async function printFile(file: string): Promise<{ status: number; body: any }> {
  return d.api('POST', `/print/${path}`, { body: { content: file, wait: true } });
}

test('a file in the data dir\'s files/ and one on a share mounted under the share root print byte-exact', async () => {
  mkdirSync(join(dataDir, 'files'), { recursive: true });
  writeFileSync(join(dataDir, 'files', 'label.zpl'), '^XA^FDfiles^FS^XZ');
  assert.equal((await printFile(join(dataDir, 'files', 'label.zpl'))).status, 200);
  assert.equal(emulator.jobs().at(-1)!.toString(), '^XA^FDfiles^FS^XZ');
  assert.equal((await d.api('POST', '/shares', { body: { sharePath: mounted } })).status, 201);
  const res = await printFile(join(mounted, 'from-share.zpl'));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(emulator.jobs().at(-1)!.toString(), '^XA^FDshare^FS^XZ');
});

test('a share at / is refused naming sharePath, and opens nothing: settings.json, /proc/self/environ and /dev/zero are 400 Local path not allowed', async () => {
  const share = await d.api('POST', '/shares', { body: { sharePath: '/' } });
  assert.equal(share.status, 400, JSON.stringify(share.body));
  assert.match(share.body.result.content.message, /^sharePath /);
  const before = emulator.jobs().length;
  for (const file of [join(dataDir, 'settings.json'), '/proc/self/environ', '/dev/zero']) {
    const res = await printFile(file);
    assert.equal(res.status, 400, `${file}: ${JSON.stringify(res.body)}`);
    assert.match(res.body.result.content.message, /Local path not allowed/);
  }
  assert.equal(emulator.jobs().length, before);
});

test('a file on the share larger than the body limit fails its job naming the limit; the daemon goes on', async () => {
  assert.equal((await d.api('PUT', '/settings', { body: { maxBodyBytes: 1024 * 1024 } })).status, 200);
  writeFileSync(join(mounted, 'big.zpl'), Buffer.alloc(2 * 1024 * 1024, 0x41));
  const res = await printFile(join(mounted, 'big.zpl'));
  assert.equal(res.status, 502, JSON.stringify(res.body));
  assert.match(res.body.result.content.error, /larger than the body limit of 1048576 bytes/);
  assert.equal((await d.api('GET', '/status')).status, 200);
});
