// Updates of a booted image under qemu, seen from outside the guest (device-image.md "What the tests must show"):
// bad bundles (another CA, another compatible, a byte flipped) refused with the slots unchanged; an older or equal version refused with 409; a newer one uploaded over
// HTTP installs, the device reboots into the other slot, marks it good, and the boot loader's state on the powered-off
// disk agrees with GET /system.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, readFileSync, statSync, truncateSync } from 'node:fs';
import http from 'node:http';
import { dirname, join } from 'node:path';
import { before, describe, test } from 'node:test';
import { tempDir } from '../../helpers/temp-dir';
import { valueWithin } from '../../helpers/until';
import { Appliance, BOOT_LIMIT_MS, copyDisk, grubEnv, imageFor, packageVersion, ubootEnv, writeBootFile, type Answer } from './appliance';
import { nextPatchVersion } from '../../../firmware/image/paths.mjs';
import { customBundle, flippedBundle, releaseBundle, trustedSigner, untrustedCa } from './bundles';

/** Uploads `file` as POST /system/update's body (the octet-stream form), with `query`; resolves with the answer. */
function upload(app: Appliance, key: string, file: string, query: Record<string, string>): Promise<Answer> {
  const search = new URLSearchParams(query).toString();
  return new Promise((resolve, reject) => {
    const request = http.request({
      host: '127.0.0.1', port: app.port, method: 'POST', path: `/api/v1/system/update?${search}`,
      headers: { 'x-api-key': key, 'content-type': 'application/octet-stream', 'content-length': statSync(file).size },
    }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    request.on('error', reject);
    createReadStream(file).pipe(request);
  });
}

function sha256(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** Both slots as GET /system shows them: [bootname, version, good]. */
async function slots(app: Appliance, key: string): Promise<{ bootSlot: string; slots: Array<[string, string, boolean]>; update: any }> {
  const content = (await app.api('GET', '/system', { key })).body.result.content;
  return { bootSlot: content.bootSlot, slots: content.slots.map((s: any) => [s.bootname, s.version, s.good]), update: content.update };
}

/** The update scenarios of one board. `refusals`: also the bad bundles and the downgrade (x86). */
export function updateScenarios(board: string, { refusals }: { refusals: boolean }): void {
  describe(`${board} image: updates under qemu`, { timeout: 45 * 60_000 }, () => {
    const factory = packageVersion();
    const newer = nextPatchVersion(factory);
    let image: string;
    let newBundle: string;
    let dir: string;
    before(() => {
      image = imageFor(board);
      newBundle = releaseBundle(board, newer);
      dir = tempDir(`update-${board}`);
    });

    test(`${refusals ? 'bad bundles and a downgrade are refused with the slots unchanged; ' : ''}a newer release uploaded over HTTP boots in the other slot, marked good, as the disk's boot state agrees`, async () => {
      const disk = copyDisk(image, join(dir, 'update.img'));
      // a card with room for a bundle: /data grows to it at first boot
      truncateSync(disk, 4 * 2 ** 30);
      const key = `update-test-key-${randomBytes(8).toString('hex')}`;
      writeBootFile(disk, 'printproxyd-setup.json', JSON.stringify({ apiKey: key }), dir);
      const app = await Appliance.boot(board, disk);
      try {
        await app.ready();
        const factoryState = await valueWithin('both slots good at the factory release', BOOT_LIMIT_MS, async () => {
          const s = await slots(app, key);
          return s.slots.every(([, , good]) => good) ? s : null;
        });
        assert.deepEqual(factoryState.slots, [['A', factory, true], ['B', factory, true]]);

        if (refusals) {
          const other = untrustedCa();
          const cases: Array<[string, string, RegExp]> = [
            ['signed by a CA the device does not trust', customBundle(dirname(newBundle), join(dir, 'untrusted.raucb'), { compatible: `printproxy-${board}`, version: newer, signer: other }), /signature/i],
            ['of another compatible', customBundle(dirname(newBundle), join(dir, 'other.raucb'), { compatible: 'printproxy-other-board', version: newer, signer: trustedSigner() }), /compatible/i],
            ['with a byte flipped in its payload', flippedBundle(newBundle, join(dir, 'flipped.raucb')), /payload/i],
          ];
          for (const [what, file, check] of cases) {
            const answer = await upload(app, key, file, { reboot: 'now' });
            let error: string;
            if (answer.status === 202) {
              const end = await valueWithin(`the update of a bundle ${what} ends`, 600_000, async () => {
                const u = (await app.api('GET', '/system/update', { key })).body.result.content;
                return u && ['failed', 'succeeded', 'awaiting-reboot', 'rebooting'].includes(u.phase) ? u : null;
              });
              assert.equal(end.phase, 'failed', `a bundle ${what} is refused: ${JSON.stringify(end)}`);
              error = end.error;
            } else {
              assert.ok(answer.status >= 400 && answer.status < 500, `a bundle ${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
              error = JSON.stringify(answer.body.result.content);
            }
            assert.match(error, check, `a bundle ${what}: the check is named (${error})`);
            assert.deepEqual((await slots(app, key)).slots, [['A', factory, true], ['B', factory, true]], `a bundle ${what} leaves both slots as they were`);
          }
          const same = await upload(app, key, join(dirname(image), `update-${factory}.raucb`), { reboot: 'now' });
          assert.equal(same.status, 409, `the running version again is refused: ${JSON.stringify(same.body)}`);
        }

        const mark = app.serial.length;
        const accepted = await upload(app, key, newBundle, { reboot: 'now', sha256: sha256(newBundle) });
        assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
        await app.waitSerial('the reboot into slot B', /booting slot B/, mark, 900_000);
        assert.equal((await app.ready()).version, newer);
        const after = await valueWithin('slot B booted, good, at the new release; the update succeeded', BOOT_LIMIT_MS, async () => {
          const s = await slots(app, key);
          return s.update?.phase === 'succeeded' && s.slots.every(([, , good]) => good) ? s : null;
        });
        assert.equal(after.bootSlot, 'B');
        assert.deepEqual(after.slots, [['A', factory, true], ['B', newer, true]]);
        assert.deepEqual([after.update.from, after.update.to], [factory, newer]);
        // RAUC may call a slot good before the health gate's mark-good gave it its boot tries back (U-Boot counts them
        // down from 3): the disk's state is read only once the gate said so
        await app.waitSerial('the health gate marking slot B good', /passed: slot B marked good/, mark, BOOT_LIMIT_MS);
        await app.shellReady(mark);
        await app.shutdown();
        if (board === 'qemu-x86_64') {
          const env = grubEnv(disk);
          assert.deepEqual([env.ORDER, env.B_OK, env.B_TRY, env.A_OK, env.A_TRY], ['B A', '1', '0', '1', '0'], 'GRUB\'s state agrees: B first and good, A good');
        } else {
          const env = ubootEnv(disk);
          assert.deepEqual([env.BOOT_ORDER, env.BOOT_B_LEFT, env.BOOT_A_LEFT], ['B A', '3', '3'], 'U-Boot\'s state agrees: B first and good, A good');
        }
      } finally {
        await app.powerOff();
      }
    });
  });
}
