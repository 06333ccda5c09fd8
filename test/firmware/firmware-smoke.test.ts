// Smoke test of the single executables, built here from the lockfile: the host's arch in `npm test`, every arch that
// ships in `npm run test:firmware` (PRINTPROXY_FIRMWARE_ARCHES=x64,arm64). They run where they would on a device: in a
// Debian 13 root (glibc 2.41; made from Debian's packages when missing, cached in .cache/), x64 by chroot and arm64
// under qemu-user.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join, resolve } from 'node:path';
import { callApi } from '../helpers/daemon-process';
import { startDaemon, tempDataDir, type DaemonHandle } from '../helpers/daemon-process';
import { tempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { barcodePagesPdf } from '../fixtures/pdf/barcode-pdf';
import { readLabelBarcodes } from '../render/barcode-reader';
import { decodeLabels } from '../render/zpl-label-decode';
// @ts-expect-error: plain ESM build script without type declarations
import { isNative, runPrefix, target } from '../../firmware/targets.mjs';

const ROOT = resolve(__dirname, '..', '..');
const HOST_ARCH = process.arch === 'arm' ? 'armv7' : process.arch;
const ARCHES = (process.env.PRINTPROXY_FIRMWARE_ARCHES || HOST_ARCH).split(',');
// a foreign arch runs under instruction emulation: start-up and rendering take many times longer
const START_MS = 180_000;

/** A privileged port (below 1024) that nothing on 127.0.0.1 listens on now. */
async function freePrivilegedPort(): Promise<number> {
  for (let port = 901; port < 1024; port += 1) {
    const free = await new Promise<boolean>((ok) => {
      const server = net.createServer().once('error', () => ok(false));
      server.listen(port, '127.0.0.1', () => server.close(() => ok(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port below 1024');
}

/** The target's firmware facts (firmware/targets.mjs). */
interface Target {
  machine: string;
  version: string;
  abi: string;
}

function build(arch: string): string {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'firmware', 'build-firmware.mjs'), '--arch', arch], { cwd: ROOT, encoding: 'utf8', timeout: 600_000 });
  assert.equal(run.status, 0, `firmware build for ${arch} failed:\n${run.stdout}\n${run.stderr}`);
  return join(ROOT, 'dist', 'firmware', `printproxyd-linux-${arch}`);
}

/** `sh -c script` in a private mount namespace, then the executable (with its qemu prefix) and the flags after it. */
function inMountNamespace(script: string, command: string[]): string[] {
  return ['unshare', '-m', 'sh', '-c', `${script} && exec "$@"`, 'sh', ...command];
}

for (const arch of ARCHES) {
  describe(`printproxyd-linux-${arch}`, () => {
    const t = target(arch) as Target;
    let binary: string;
    let prefix: string[];
    let command: string[];
    let d: DaemonHandle;
    let emulator: ZplPrinterEmulator;
    let emulatorPort: number;

    before(async () => {
      binary = build(arch);
      prefix = runPrefix(arch) as string[];
      command = [...prefix, binary];
      emulator = new ZplPrinterEmulator();
      emulatorPort = await emulator.start();
      d = await startDaemon({ command, startTimeoutMs: START_MS });
    });
    after(async () => {
      await d?.stop();
      await emulator?.stop();
    });

    test('GET /api/v1/status answers, with the natives written once into the data dir', async () => {
      const res = await d.api('GET', '/status');
      assert.equal(res.status, 200);
      assert.equal(res.body.result.module, '/status');
      assert.match(res.body.result.content.buildVersion, /^\d+\.\d+\.\d+\+/);
      const cache = join(d.dataDir, 'native-cache');
      const [folder, ...others] = readdirSync(cache);
      assert.deepEqual(others, []);
      assert.deepEqual(readdirSync(join(cache, folder)).sort(), ['.complete', `uws_linux_${t.machine}_${t.abi}.node`, 'usb.node'].sort());
    });

    test('a PDF label renders to ZPL in the worker pool inside the executable, and its barcode reads back', async () => {
      const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port: emulatorPort, protocol: 'tcp' }, content: 'zpl' } });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      const pdf = await barcodePagesPdf(4, 6, [{ symbology: 'code128', text: `FW-${arch}-1234`, mode: 'vector', modulePt: 1.5, barHeightPt: 40 }]);
      const res = await d.api('POST', `/print/${added.body.result.content.path}`, { body: { contentType: 'pdf_base64', content: Buffer.from(pdf).toString('base64'), wait: true } });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const [label] = decodeLabels(emulator.jobs().at(-1)!.toString('latin1'));
      assert.deepEqual([label.pw, label.ll], [812, 1218]);
      const found = await readLabelBarcodes(label.bitmap, label.pw);
      assert.deepEqual(found.filter((r) => r.isValid).map((r) => r.text), [`FW-${arch}-1234`]);
    });

    test('the web console is embedded: its page at / (with the CSP) and its hashed script and stylesheet come from the executable', async () => {
      const page = await fetch(`${d.baseUrl}/printers`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type')!, /^text\/html/);
      assert.match(page.headers.get('content-security-policy')!, /frame-ancestors 'none'/);
      const html = await page.text();
      const assets = [...html.matchAll(/(?:src|href)="(\/app-[A-Za-z0-9]+\.(?:js|css))"/g)].map((m) => m[1]);
      assert.equal(assets.length, 2, html);
      for (const asset of assets) {
        const res = await fetch(`${d.baseUrl}${asset}`);
        assert.equal(res.status, 200, asset);
        assert.equal(res.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        assert.ok((await res.arrayBuffer()).byteLength > 1000, asset);
      }
    });

    test(`--version names our build and the Node it carries (${t.version})`, () => {
      const [program, ...args] = [...command, '--version'];
      const run = spawnSync(program, args, { encoding: 'utf8', timeout: START_MS });
      assert.equal(run.status, 0, run.stderr);
      const printed = JSON.parse(run.stdout) as Record<string, string>;
      assert.equal(printed.node, t.version);
      assert.match(printed.buildVersion, /^\d+\.\d+\.\d+\+/);
    });

    test('usb-list runs and prints a JSON list', () => {
      const [program, ...args] = [...command, 'usb-list'];
      const run = spawnSync(program, args, { encoding: 'utf8', env: { ...process.env, PRINTPROXY_DATA_DIR: tempDataDir() }, timeout: START_MS });
      assert.equal(run.status, 0, run.stderr);
      assert.ok(Array.isArray(JSON.parse(run.stdout)), run.stdout);
    });

    test('runs with the whole file system read-only but the data dir, from a read-only working directory', async () => {
      const dataDir = tempDataDir();
      const script = `mount --bind "${dataDir}" "${dataDir}" && mount -o remount,bind,ro /`;
      const ro = await startDaemon({ dataDir, command: inMountNamespace(script, command), cwd: join(ROOT, 'dist', 'firmware'), startTimeoutMs: START_MS });
      try {
        const res = await ro.api('GET', '/status');
        assert.equal(res.status, 200);
        assert.ok(existsSync(join(dataDir, 'settings.json')));
      } finally {
        assert.equal(await ro.stop(), 0);
      }
    });

    test('refuses to start, saying why, when the native cache folder is mounted noexec', () => {
      const cache = tempDir('printproxyd-noexec');
      const [program, ...args] = inMountNamespace(`mount -t tmpfs -o noexec tmpfs "${cache}"`, [...command, '--data-dir', tempDataDir(), '--native-dir', cache, '--port', '0', '--no-https', '--no-mdns']);
      const run = spawnSync(program, args, { encoding: 'utf8', timeout: START_MS });
      assert.equal(run.status, 1, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stderr, new RegExp(`native cache folder ${cache} is on a filesystem mounted noexec`));
      assert.doesNotMatch(run.stdout, /listening/);
    });

    test('the image init script runs it as an unprivileged user on a privileged port, and stops it', { skip: !isNative(arch) && 'the init script is run on the host arch only' }, async () => {
      // the script runs where the executable does (in the Debian 13 root for a Node 24 build), as on the device
      const port = await freePrivilegedPort();
      const dataDir = tempDataDir();
      const etc = tempDir('printproxyd-etc');
      const log = join(etc, 'printproxyd.log');
      // installed where the unprivileged user can read it, as in the image: the checkout may sit in a folder only its
      // owner can enter (a `mktemp -d` clone)
      const bin = tempDir('printproxyd-bin');
      const installed = join(bin, 'printproxyd');
      copyFileSync(binary, installed);
      chmodSync(installed, 0o755);
      chmodSync(bin, 0o755);
      writeFileSync(join(etc, 'printproxyd'), [`PRINTPROXYD_BIN=${installed}`, `PRINTPROXYD_DATA_DIR=${dataDir}`, `PRINTPROXYD_HTTP_PORT=${port}`, 'PRINTPROXYD_USER=nobody', `PRINTPROXYD_LOG=${log}`, `PRINTPROXYD_PIDFILE=${join(etc, 'pid')}`, 'PRINTPROXYD_ARGS="--no-https --no-mdns --host 127.0.0.1"', ''].join('\n'));
      const script = join(ROOT, 'buildroot-overlay', 'etc', 'init.d', 'S95printproxyd');
      const env = { ...process.env, PRINTPROXYD_DEFAULTS: join(etc, 'printproxyd'), PRINTPROXY_API_KEY: 'init-script-key-0123' };
      const [sh, ...shArgs] = [...prefix, 'sh', script];
      const started = spawnSync(sh, [...shArgs, 'start'], { encoding: 'utf8', env, timeout: 30_000 });
      assert.equal(started.status, 0, started.stdout + started.stderr);
      const baseUrl = `http://127.0.0.1:${port}`;
      try {
        const answered = await until('GET /status from the daemon the init script started', () => callApi(baseUrl, 'init-script-key-0123', 'GET', '/status').then((r) => r.status === 200, () => false), START_MS).then(() => 'answered', () => (existsSync(log) ? readFileSync(log, 'utf8') : 'no log'));
        assert.equal(answered, 'answered');
        const nobody = Number(spawnSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).stdout.trim());
        assert.equal(statSync(join(dataDir, 'settings.json')).uid, nobody, 'settings.json is written by the unprivileged user');
        assert.match(readFileSync(log, 'utf8'), new RegExp(`listening on http://127.0.0.1:${port}`));
      } finally {
        const stopped = spawnSync(sh, [...shArgs, 'stop'], { encoding: 'utf8', env, timeout: 30_000 });
        assert.equal(stopped.status, 0, stopped.stdout + stopped.stderr);
      }
      assert.equal(await callApi(baseUrl, 'init-script-key-0123', 'GET', '/status').then(() => 'answered', (e: NodeJS.ErrnoException) => e.code), 'ECONNREFUSED');
      assert.equal(existsSync(join(etc, 'pid')), false);
    });
  });
}
