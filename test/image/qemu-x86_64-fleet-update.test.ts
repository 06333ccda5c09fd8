// A fleet update that goes wrong, on the qemu-x86_64 image (device-image.md "What the tests must show"): `printproxyd
// fleet update` through a real Mosquitto (TLS client certificates, the ACL on %u) installs a release whose daemon never
// becomes ready; the device comes back on the old slot by itself and reports `rolled-back`, on the fleet's events and in
// GET /system/update. A job accepted over HTTP just before the update prints once; a job spooled while the new slot ran
// is printed by the old slot after the rollback; the same MQTT request delivered again installs nothing; with
// updates.fromFleet off, the request answers 403.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nextPatchVersion } from '../../firmware/image/paths.mjs';
import { startBundleServer, type BundleServer } from '../fixtures/bundle-server';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { printedMarkers, record, type Recorder } from '../fleet/bridge-harness';
import { startFleetCli, type FleetCli } from '../fleet/fleet-cli-harness';
import { tempDir } from '../helpers/temp-dir';
import { valueWithin } from '../helpers/until';
import { Appliance, BOOT_LIMIT_MS, copyDisk, grubEnv, HOST_FROM_GUEST, imageFor, packageVersion, writeBootFile } from './helpers/appliance';
import { staleDaemonBundle } from './helpers/bundles';

const BOARD = 'qemu-x86_64';
const DEVICE = 'site-17';
const PORTS = { printer: 9100, broker: 8883, releases: 8080 };
/** The health gate's limit (/etc/default/health-gate) and two boots under software emulation, with room to spare. */
const ROLLBACK_LIMIT_MS = 15 * 60_000;

describe(`${BOARD} image: a fleet update to a release that never becomes ready rolls back by itself`, { timeout: 60 * 60_000 }, () => {
  const factory = packageVersion();
  const broken = nextPatchVersion(nextPatchVersion(factory));
  const emulator = new ZplPrinterEmulator();
  let fleet: FleetCli;
  let recorder: Recorder;
  let releases: BundleServer;
  let bundle: string;
  let dir: string;

  before(async () => {
    bundle = staleDaemonBundle(BOARD, broken, factory);
    dir = tempDir('fleet-update');
    fleet = await startFleetCli({ altNames: [`IP:${HOST_FROM_GUEST}`] });
    recorder = await record(fleet.broker);
    releases = await startBundleServer(readFileSync(bundle));
  });
  after(async () => {
    await recorder?.end();
    await fleet?.stop();
    await releases?.close();
    await emulator.stop();
  });

  test('403 while fromFleet is off; then installed, never ready, rolled back; jobs printed once; a redelivery installs nothing', async () => {
    const printerPort = await emulator.start();
    const disk = copyDisk(imageFor(BOARD), join(dir, 'fleet.img'));
    truncateSync(disk, 4 * 2 ** 30);
    const key = `fleet-update-key-${randomBytes(8).toString('hex')}`;
    writeBootFile(disk, 'printproxyd-setup.json', JSON.stringify({ apiKey: key }), dir);
    const app = await Appliance.boot(BOARD, disk, [[PORTS.printer, printerPort], [PORTS.broker, fleet.broker.port], [PORTS.releases, portOf(releases.url)]]);
    const api = (method: string, path: string, body?: unknown) => app.api(method, path, { key, body });
    const print = async (marker: string) => {
      const answer = await app.api('POST', `/print/${encodeURIComponent(printer)}?wait=false`, { key, raw: Buffer.from(`^XA^FO40,40^A0N,40,40^FD${marker}^FS^XZ`) });
      assert.equal(answer.status, 201, `the job ${marker} is accepted: ${JSON.stringify(answer.body)}`);
    };
    const update = async () => (await api('GET', '/system/update')).body.result.content;
    let printer = '';
    try {
      await app.ready();
      const id = fleet.broker.cert(DEVICE);
      const joined = await api('PUT', '/fleet', { enabled: true, brokerUrl: `mqtts://${HOST_FROM_GUEST}:${PORTS.broker}`, deviceId: DEVICE, ca: fleet.broker.ca, cert: id.cert, key: id.key, keepaliveSec: 5 });
      assert.equal(joined.status, 200, JSON.stringify(joined.body));
      await valueWithin('the device is connected to the broker', BOOT_LIMIT_MS, async () => ((await api('GET', '/status')).body.result.content.fleet?.state === 'connected' ? true : null));
      const firstStatus = await valueWithin('the retained status of the factory boot', 60_000, () => recorder.json(`printproxy/v1/${DEVICE}/status`).find((s) => s.online) ?? null);
      assert.equal(firstStatus.version, factory);
      const added = await api('POST', '/printers', { connection: { type: 'network', host: HOST_FROM_GUEST, port: PORTS.printer, protocol: 'tcp' }, content: 'zpl' });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      printer = added.body.result.content.path;

      const sha256 = createHash('sha256').update(readFileSync(bundle)).digest('hex');
      const args = ['update', DEVICE, '--url', `http://${HOST_FROM_GUEST}:${PORTS.releases}/bundle.raucb`, '--sha256', sha256, '--size', String(statSync(bundle).size), '--version', broken, '--device-timeout', String(ROLLBACK_LIMIT_MS / 1000)];

      // updates.fromFleet is off at the factory: the fleet's request answers 403 and nothing starts
      const refused = fleet.run(...args);
      assert.notEqual(await refused.done, 0, refused.out() + refused.err());
      assert.match(refused.out() + refused.err(), new RegExp(`${DEVICE} refused: 403 .*fromFleet`), 'the device answers 403, naming the setting');
      assert.equal(await update(), null, 'no update was started');
      assert.equal((await api('PUT', '/settings/updates', { fromFleet: true })).status, 200);

      // a job accepted just before the update, held while the printer is out of paper: the update waits for it (reboot: idle)
      emulator.state.paperOut = true;
      await print('before-update');
      const bootA = app.serial.length;
      const run = fleet.run(...args);
      const request = await valueWithin('the fleet command sent its request', 60_000, () => recorder.messages.find((m) => m.topic === `printproxy/v1/${DEVICE}/req`) ?? null);
      const waiting = await valueWithin('the release is downloaded, checked and installed; the reboot waits for the job', ROLLBACK_LIMIT_MS, async () => {
        const u = await update();
        assert.ok(!['failed', 'rolled-back'].includes(u?.phase), `the update goes on: ${JSON.stringify(u)}`);
        return u?.phase === 'awaiting-reboot' ? u : null;
      });
      assert.deepEqual([waiting.from, waiting.to], [factory, broken]);
      assert.equal(printedMarkers(emulator).get('before-update'), undefined, 'the job has not printed yet');
      emulator.state.paperOut = false;
      await valueWithin('the job accepted before the update prints', 120_000, () => printedMarkers(emulator).get('before-update') ?? null);

      // the new slot boots; its daemon takes a job (spooled: the printer is out of paper again) but never passes the gate
      await app.waitSerial('the reboot into slot B', /booting slot B/, bootA, BOOT_LIMIT_MS);
      const bootB = app.serial.length;
      emulator.state.paperOut = true;
      const onB = await valueWithin('the daemon on slot B answers', BOOT_LIMIT_MS, async () => {
        const system = await api('GET', '/system').catch(() => null);
        return system?.status === 200 && system.body.result.content.bootSlot === 'B' ? system.body.result.content : null;
      });
      assert.equal(onB.slots.find((s: { bootname: string }) => s.bootname === 'B').good, false, 'slot B is on trial, not good');
      await print('spooled-on-slot-b');

      // the gate fails: slot B marked bad, slot A boots again by itself and reports the update rolled back
      await app.waitSerial('the reboot back into slot A', /booting slot A/, bootB, ROLLBACK_LIMIT_MS);
      const sinceRollback = recorder.messages.length;
      const rolledBack = await valueWithin('the old slot reports the update rolled back', BOOT_LIMIT_MS, async () => {
        const u = await update().catch(() => null);
        return u?.phase === 'rolled-back' ? u : null;
      });
      assert.equal(rolledBack.id, waiting.id);
      assert.match(rolledBack.error, /health|gate|ready/i, `the reason is named: ${rolledBack.error}`);
      const system = (await api('GET', '/system')).body.result.content;
      assert.equal(system.bootSlot, 'A');
      assert.deepEqual(system.slots.map((s: any) => [s.bootname, s.version, s.good]), [['A', factory, true], ['B', broken, false]]);
      assert.equal(await run.done, 1, `the command ends with a failure:\n${run.out()}${run.err()}`);
      assert.match(run.out(), new RegExp(`${DEVICE} rolled-back`), run.out());
      const events = recorder.json(`printproxy/v1/${DEVICE}/events/system.update`);
      assert.ok(events.some((e) => eventContent(e).id === waiting.id && eventContent(e).phase === 'rolled-back'), `a system.update event says rolled-back: ${JSON.stringify(events.map(eventContent))}`);
      const status = await valueWithin('the status the old slot published', 120_000, () => {
        const published = recorder.messages.slice(sinceRollback).filter((m) => m.topic === `printproxy/v1/${DEVICE}/status` && m.text.length > 0).map((m) => JSON.parse(m.text));
        return published.find((s) => s.online) ?? null;
      });
      assert.equal(status.version, factory);
      assert.notEqual(status.bootId, firstStatus.bootId, 'it is the status of a later boot');

      // the job spooled on slot B is printed by slot A; each job printed exactly once
      emulator.state.paperOut = false;
      await valueWithin('the job spooled on slot B prints after the rollback', 120_000, () => printedMarkers(emulator).get('spooled-on-slot-b') ?? null);
      assert.equal(printedMarkers(emulator).get('before-update'), 1);
      assert.equal(printedMarkers(emulator).get('spooled-on-slot-b'), 1);

      // the same MQTT request again (same id, same idempotency key): answered with that update, nothing installed
      const bootAgain = app.serial.length;
      const answers = recorder.messages.length;
      await recorder.client.publishAsync(request.topic, request.text, { qos: 1, properties: { responseTopic: `printproxy/v1/${DEVICE}/res`, correlationData: Buffer.from('redelivered') } });
      const answer = await valueWithin('the redelivered request is answered', 60_000, () => recorder.messages.slice(answers).find((m) => m.topic === `printproxy/v1/${DEVICE}/res` && m.correlation === 'redelivered') ?? null);
      assert.equal(JSON.parse(answer.text).body.result.content.id, waiting.id, answer.text);
      const rerun = fleet.run(...args);
      assert.equal(await rerun.done, 1, rerun.out() + rerun.err());
      assert.match(rerun.out(), new RegExp(`${DEVICE} accepted: update ${waiting.id}[\\s\\S]*${DEVICE} rolled-back`), rerun.out());
      const still = await update();
      assert.deepEqual([still.id, still.phase], [waiting.id, 'rolled-back']);
      assert.deepEqual((await api('GET', '/system')).body.result.content.slots.map((s: any) => [s.bootname, s.version, s.good]), [['A', factory, true], ['B', broken, false]]);
      assert.doesNotMatch(app.serialSince(bootAgain), /booting slot|Installation .* started/, 'nothing was installed and the device did not reboot');

      await app.shellReady(bootB);
      await app.shutdown();
      const env = grubEnv(disk);
      assert.deepEqual([env.ORDER.split(' ')[0], env.A_OK, env.B_OK], ['A', '1', '0'], `GRUB's state on the disk agrees: A first and good, B not (${JSON.stringify(env)})`);
    } finally {
      await app.powerOff();
    }
  });
});

function portOf(url: string): number {
  return Number(new URL(url).port);
}

/** An event's fields, whether the fleet's events carry them at the top or under `data`. */
function eventContent(event: any): any {
  return event?.data ?? event;
}
