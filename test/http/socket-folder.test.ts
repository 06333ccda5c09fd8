// The daemon starts on a read-only root (the device's) with only its data dir writable: on Node 20 the HTTP/1 front's
// private socket folder cannot go in the temporary folder, so it goes to /dev/shm (src/http/socket-folder.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startDaemon, tempDataDir } from '../helpers/daemon-process';

const ROOT = resolve(__dirname, '..', '..');

test('with / read-only but the data dir, the daemon starts, answers over HTTP, and leaves no socket folder behind', async () => {
  const dataDir = tempDataDir();
  const script = `mount --bind "${dataDir}" "${dataDir}" && mount -o remount,bind,ro /`;
  const command = ['unshare', '-m', 'sh', '-c', `${script} && exec "$@"`, 'sh', process.execPath, '--import', 'tsx', join(ROOT, 'src', 'main.ts')];
  const before = frontFolders();
  const d = await startDaemon({ dataDir, command });
  try {
    const res = await d.api('GET', '/status');
    assert.equal(res.status, 200);
    assert.ok(existsSync(join(dataDir, 'settings.json')));
  } finally {
    assert.equal(await d.stop(), 0);
  }
  assert.deepEqual(frontFolders().filter((name) => !before.includes(name)), []);
});

/** The front's socket folders in /dev/shm now. */
function frontFolders(): string[] {
  return existsSync('/dev/shm') ? readdirSync('/dev/shm').filter((name) => name.startsWith('printproxyd-http-')) : [];
}
