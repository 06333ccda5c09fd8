// The slots from RAUC's status JSON: real `rauc status --detailed --output-format=json` output (test/fixtures/rauc, printed
// by RAUC 1.8 with a custom boot loader backend; 1.13's formatter adds only `bundle.hash` and `artifact-repositories`,
// device paths replaced by the image's partition labels), and a fake rauc executable that prints it, fails or is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../src/errors';
import { execRunner } from '../../src/device/netbird-status';
import { NO_RAUC, parseRaucStatus, RAUC_STATUS_ARGS, RaucStatus } from '../../src/system/rauc-status';
import { tempDir } from '../helpers/temp-dir';

const FIXTURES = join(__dirname, '..', 'fixtures', 'rauc');
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(FIXTURES, `status-${name}.json`), 'utf8'));
const unavailable = (pattern: RegExp) => (err: unknown) => err instanceof AppError && err.code === 'SYSTEM_UNAVAILABLE' && pattern.test(err.message);

/** A fake rauc in a temp dir: prints `stdout` (and `stderr`) and exits with `code` when called with the status arguments. */
function fakeRauc(stdout: string, code = 0, stderr = ''): string {
  const dir = tempDir('fake-rauc');
  const out = join(dir, 'stdout');
  writeFileSync(out, stdout);
  const script = join(dir, 'rauc');
  writeFileSync(
    script,
    `#!/bin/sh\n[ "$*" = "${RAUC_STATUS_ARGS.join(' ')}" ] || { echo "unexpected arguments: $*" >&2; exit 64; }\n` +
      `cat '${out}'\n${stderr ? `echo '${stderr}' >&2\n` : ''}exit ${code}\n`,
  );
  chmodSync(script, 0o755);
  return script;
}

test('a factory device: slot A booted, both slots good with the same release, by name', () => {
  assert.deepEqual(parseRaucStatus(fixture('factory')), {
    bootSlot: 'A',
    slots: [
      { name: 'rootfs.0', bootname: 'A', state: 'booted', version: '0.1.0', installedAt: '2026-11-02T10:15:00Z', good: true },
      { name: 'rootfs.1', bootname: 'B', state: 'inactive', version: '0.1.0', installedAt: '2026-11-02T10:15:00Z', good: true },
    ],
    update: null,
  });
});

test('an update installed into B before the reboot: A still booted, B reports the new version and its install time', () => {
  const status = parseRaucStatus(fixture('awaiting-reboot'));
  assert.equal(status.bootSlot, 'A');
  assert.deepEqual(status.slots[1], { name: 'rootfs.1', bootname: 'B', state: 'inactive', version: '0.2.0', installedAt: '2026-11-20T08:03:12Z', good: true });
});

test("after a rollback B is not good (the boot loader's state), and a slot of another class is left out", () => {
  const status = parseRaucStatus(fixture('rolled-back'));
  assert.equal(status.bootSlot, 'A');
  assert.deepEqual(status.slots.map((s) => [s.name, s.good]), [['rootfs.0', true], ['rootfs.1', false]]);
});

test('unexpected JSON is a SYSTEM_UNAVAILABLE naming what was wrong', () => {
  assert.throws(() => parseRaucStatus([]), unavailable(/the answer is not an object/));
  assert.throws(() => parseRaucStatus({ booted: 'A' }), unavailable(/slots is not an array/));
  const strange = fixture('factory') as { slots: Array<Record<string, { state: string }>> };
  strange.slots[0]['rootfs.1'].state = 'sleeping';
  assert.throws(() => parseRaucStatus(strange), unavailable(/rootfs.1 has state "sleeping"/));
});

test('the reader runs the rauc it is given with the status arguments and parses what it prints', async () => {
  const rauc = new RaucStatus({ command: fakeRauc(readFileSync(join(FIXTURES, 'status-factory.json'), 'utf8')), run: execRunner, timeoutMs: 10_000 });
  const status = await rauc.read();
  assert.equal(status.bootSlot, 'A');
  assert.equal(status.slots.length, 2);
});

test('no rauc command (a laptop): no slots, no boot slot, no error', async () => {
  const rauc = new RaucStatus({ command: join(tempDir('no-rauc'), 'rauc'), run: execRunner, timeoutMs: 10_000 });
  assert.deepEqual(await rauc.read(), NO_RAUC);
});

test('a rauc that fails, or prints no JSON, is a SYSTEM_UNAVAILABLE with its words', async () => {
  const failing = new RaucStatus({ command: fakeRauc('', 1, 'Error retrieving slot status via D-Bus: no service'), run: execRunner, timeoutMs: 10_000 });
  await assert.rejects(failing.read(), unavailable(/status failed: .*Error retrieving slot status via D-Bus: no service/));
  const chatty = new RaucStatus({ command: fakeRauc('rauc-Message: hello\n'), run: execRunner, timeoutMs: 10_000 });
  await assert.rejects(chatty.read(), unavailable(/printed no JSON: rauc-Message: hello/));
});
