// What every board's image must show, booted under qemu (software emulation) and seen from outside the guest:
// (1) a device set up by its setup file: slot A booted, both slots good at the release's version, the daemon on port
//     80 as `printproxyd` with CAP_NET_BIND_SERVICE alone, `/` read-only, `/data` kept across a reboot, a label
//     printed through the API to an emulator on the host, the boot loader's state on the disk after power-off;
// (2) a bad setup file: not applied, removed, named in `warnings`; the unclaimed device serves the claim page once.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { truncateSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ZplPrinterEmulator } from '../../fixtures/zebra-tcp-printer';
import { launchChromium } from '../../helpers/browser';
import { tempDir } from '../../helpers/temp-dir';
import { valueWithin } from '../../helpers/until';
import {
  Appliance, BOOT_LIMIT_MS, bootFiles, copyDisk, grubEnv, HOST_FROM_GUEST, imageFor, packageVersion, ubootEnv, writeBootFile,
} from './appliance';

const SETUP_FILE = 'printproxyd-setup.json';
/** CAP_NET_BIND_SERVICE is capability 10: the only bit of the daemon's sets. */
const NET_BIND_ONLY = (1n << 10n).toString(16).padStart(16, '0');

/** The boot loader's state of `board` read from its powered-off disk: per slot, good (tries given back) or not. */
function bootState(board: string, disk: string): { primary: string; good: Record<string, boolean> } {
  if (board === 'qemu-x86_64') {
    const env = grubEnv(disk);
    return { primary: env.ORDER.split(' ')[0], good: { A: env.A_OK === '1' && env.A_TRY === '0', B: env.B_OK === '1' && env.B_TRY === '0' } };
  }
  const env = ubootEnv(disk);
  return { primary: env.BOOT_ORDER.split(' ')[0], good: { A: env.BOOT_A_LEFT === '3', B: env.BOOT_B_LEFT === '3' } };
}

/** Waits until GET /system (with `key`) shows every slot good (the health gate ran); returns its content. */
async function allSlotsGood(app: Appliance, key: string): Promise<any> {
  return valueWithin(`${app.board}: GET /system shows both slots good`, BOOT_LIMIT_MS, async () => {
    const answer = await app.api('GET', '/system', { key });
    const content = answer.status === 200 ? answer.body.result.content : null;
    return content?.slots?.length === 2 && content.slots.every((s: { good: boolean }) => s.good) ? content : null;
  });
}

/** The daemon's process status lines (Uid, Gid, Cap*) as a map, from the console's shell. */
async function daemonProcess(app: Appliance): Promise<Record<string, string>> {
  const { out, status } = await app.shell('grep -E "^(Uid|Gid|Cap[A-Za-z]+):" /proc/$(cat /var/run/printproxyd.pid)/status');
  assert.equal(status, 0, out);
  return Object.fromEntries(out.split('\n').filter((l) => l.includes(':')).map((l) => l.split(':').map((p) => p.trim()) as [string, string]));
}

/** The scenarios of one board, as one describe block. */
export function applianceScenarios(board: string): void {
  describe(`${board} image under qemu`, { timeout: 30 * 60_000 }, () => {
    let image: string;
    let dir: string;
    const emulator = new ZplPrinterEmulator();
    let emulatorPort: number;
    before(async () => {
      image = await imageFor(board);
      dir = tempDir(`image-${board}`);
      emulatorPort = await emulator.start();
    });
    after(() => emulator.stop());

    test('set up by its setup file: slot A, both slots good, printproxyd on port 80 with CAP_NET_BIND_SERVICE alone, / read-only, /data kept across a reboot, a label printed', async () => {
      const disk = copyDisk(image, join(dir, 'set-up.img'));
      const key = `setup-file-key-${randomBytes(8).toString('hex')}`;
      writeBootFile(disk, SETUP_FILE, JSON.stringify({ apiKey: key, hostname: 'label-desk-7' }), dir);
      const app = await Appliance.boot(board, disk, [[9100, emulatorPort]]);
      try {
        assert.equal((await app.ready()).version, packageVersion());
        const system = await allSlotsGood(app, key);
        assert.equal(system.bootSlot, 'A');
        assert.deepEqual(system.slots.map((s: any) => [s.name, s.bootname, s.version]), [['rootfs.0', 'A', packageVersion()], ['rootfs.1', 'B', packageVersion()]]);
        assert.equal(system.slots[0].state, 'booted');
        assert.equal(system.update, null);
        assert.equal((await app.api('GET', '/system')).status, 401, 'the setup file claimed the device: no key, no answer');

        await app.shellReady();
        const proc = await daemonProcess(app);
        const uid = (await app.shell('id -u printproxyd')).out.trim();
        assert.match(uid, /^\d+$/);
        assert.deepEqual(proc.Uid.split(/\s+/), [uid, uid, uid, uid], 'the daemon runs as printproxyd');
        for (const set of ['CapEff', 'CapPrm', 'CapBnd', 'CapAmb']) assert.equal(proc[set], NET_BIND_ONLY, `${set}: CAP_NET_BIND_SERVICE alone`);
        const rootWrite = await app.shell('touch /written-to-root 2>&1');
        assert.notEqual(rootWrite.status, 0);
        assert.match(rootWrite.out, /Read-only file system/);
        assert.equal((await app.shell('echo kept > /data/probe && sync')).status, 0);
        assert.equal((await app.shell(`test -e /mnt/boot/${SETUP_FILE}`)).status, 1, 'the setup file is gone from boot');
        assert.equal((await app.shell('hostname')).out.trim(), 'label-desk-7');

        const added = await app.api('POST', '/printers', { key, body: { connection: { type: 'network', host: HOST_FROM_GUEST, port: 9100, protocol: 'tcp' }, content: 'zpl' } });
        assert.equal(added.status, 201, JSON.stringify(added.body));
        const path = added.body.result.content.path as string;
        const label = `^XA^FO40,40^A0N,40,40^FDprintproxy ${board} ${randomBytes(4).toString('hex')}^FS^XZ`;
        const printed = await app.api('POST', `/print/${encodeURIComponent(path)}`, { key, raw: Buffer.from(label) });
        assert.ok(printed.status === 200 || printed.status === 201, JSON.stringify(printed.body));
        await valueWithin('the label reached the emulator on the host', 60_000, () => emulator.jobs().some((j) => j.toString('latin1').includes(label)));

        const mark = app.serial.length;
        app.send('reboot');
        await app.waitSerial('a second boot of slot A', /booting slot A/, mark);
        await app.ready();
        const printers = await app.api('GET', '/printers', { key });
        assert.ok(printers.body.result.content.some((p: { path: string }) => p.path === path), 'the printer added before the reboot is still there');
        await app.shellReady(mark);
        assert.equal((await app.shell('cat /data/probe')).out.trim(), 'kept');
        await allSlotsGood(app, key);
        await app.shutdown();
        assert.ok(!bootFiles(disk).some((f) => f.toLowerCase() === SETUP_FILE), 'no setup file on the powered-off disk');
        assert.deepEqual(bootState(board, disk), { primary: 'A', good: { A: true, B: true } }, 'the boot loader state on the disk agrees with GET /system');
      } finally {
        await app.powerOff();
      }
    });

    test('a bad setup file is not applied, is removed and named in warnings; the unclaimed device serves the claim page once; /data grows to the disk', async () => {
      const disk = copyDisk(image, join(dir, 'bad-setup.img'));
      // a card larger than the image: the data partition takes the rest at first boot
      truncateSync(disk, 4 * 2 ** 30);
      writeBootFile(disk, SETUP_FILE, JSON.stringify({ apiKey: 'too-short', hostname: 'never-applied' }), dir);
      const app = await Appliance.boot(board, disk);
      const browser = await launchChromium();
      try {
        await app.ready();
        const before = await app.api('GET', '/status');
        assert.equal(before.status, 401);
        assert.equal(before.body.result.content.message, 'Device not set up');
        const page = await browser.newPage();
        await page.goto(`http://127.0.0.1:${app.port}/`);
        await page.getByRole('heading', { name: 'Set the API key' }).waitFor({ timeout: 60_000 });
        const key = `claimed-in-browser-${randomBytes(8).toString('hex')}`;
        await page.getByLabel('New API key').fill(key);
        await page.getByLabel('Repeat the key').fill(key);
        await page.getByRole('button', { name: 'Set the key' }).click();
        await valueWithin('the key set in the page opens the API', 60_000, async () => (await app.api('GET', '/status', { key })).status === 200);
        assert.equal((await app.api('POST', '/setup', { body: { apiKey: `a-second-key-${randomBytes(8).toString('hex')}` } })).status, 409, 'claimed once only');
        await page.reload();
        await page.getByRole('heading', { name: 'Set the API key' }).waitFor({ state: 'detached', timeout: 30_000 });

        const status = await app.api('GET', '/status', { key });
        const warnings: string[] = status.body.result.content.warnings;
        assert.ok(warnings.some((w) => /setup file/i.test(w) && /apiKey/.test(w)), `a warning names apiKey: ${JSON.stringify(warnings)}`);
        await app.shellReady();
        assert.equal((await app.shell(`test -e /mnt/boot/${SETUP_FILE}`)).status, 1, 'the bad setup file is removed too');
        assert.notEqual((await app.shell('hostname')).out.trim(), 'never-applied', 'nothing of the bad file applied');
        const dataKiB = Number((await app.shell("df -k /data | awk 'NR == 2 { print $2 }'")).out.trim());
        assert.ok(dataKiB > 2.5 * 2 ** 20, `/data has about 3 GiB on a 4 GiB disk (${dataKiB} KiB)`);
      } finally {
        await browser.close();
        await app.powerOff();
      }
    });
  });
}
