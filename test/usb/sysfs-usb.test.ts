// Strings from sysfs (a busy printer keeps its serial), the sysfs hotplug watch, and the choice of hotplug mode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sysfsStrings } from '../../src/usb/sysfs-usb';
import { watchSysfsUsb, type SysfsDevice } from '../../src/usb/sysfs-usb-watch';
import { hotplugMode, hotplugModeText, UDEVD_CONTROL } from '../../src/usb/hotplug-mode';
import { tempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';

function addDevice(root: string, name: string, devnum: number, strings: Record<string, string> = {}): void {
  mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, name, 'devnum'), `${devnum}\n`);
  for (const [file, value] of Object.entries(strings)) writeFileSync(join(root, name, file), `${value}\n`);
}

test('strings come from the device’s sysfs folder when it holds the same address; absent files stay undefined', async () => {
  const root = tempDir('sysfs-usb');
  addDevice(root, '1-1.4', 7, { serial: 'D4J211111', manufacturer: 'Zebra Technologies', product: 'ZTC ZD421-203dpi ZPL' });
  addDevice(root, '2-1', 3, { product: 'No serial' });
  assert.deepEqual(sysfsStrings(1, [1, 4], 7, root), { serialNumber: 'D4J211111', manufacturer: 'Zebra Technologies', product: 'ZTC ZD421-203dpi ZPL' });
  assert.deepEqual(sysfsStrings(2, [1], 3, root), { serialNumber: undefined, manufacturer: undefined, product: 'No serial' });
  assert.deepEqual(sysfsStrings(1, [1, 4], 8, root), {}, 're-plugged since: another device');
  assert.deepEqual(sysfsStrings(1, [], 1, root), {}, 'root hub');
  assert.deepEqual(sysfsStrings(3, [2], 1, root), {}, 'no folder');
});

test('the sysfs watch reports devices that come and go after its first listing, a re-plug (new address) as both', async () => {
  const root = tempDir('sysfs-usb');
  addDevice(root, '1-1', 2);
  mkdirSync(join(root, '1-1:1.0'));
  mkdirSync(join(root, 'usb1'));
  const events: string[] = [];
  const name = (d: SysfsDevice) => `${d.busNumber}-${d.portNumbers.join('.')}@${d.deviceAddress}`;
  const watch = watchSysfsUsb({ root, intervalMs: 20, onAdd: (d) => events.push(`+${name(d)}`), onRemove: (d) => events.push(`-${name(d)}`) });
  try {
    await watch.ready;
    addDevice(root, '1-2', 5);
    await until('the watch saw 1-2', () => events.includes('+1-2@5'));
    assert.deepEqual(events, ['+1-2@5']);
    rmSync(join(root, '1-1'), { recursive: true });
    await until('the watch saw 1-1 go', () => events.includes('-1-1@2'));
    addDevice(root, '1-2', 6);
    await until('the watch saw the re-plug', () => events.includes('+1-2@6'));
    assert.deepEqual(events, ['+1-2@5', '-1-1@2', '-1-2@5', '+1-2@6']);
  } finally {
    watch.stop();
  }
});

test('hotplug mode: udev when udevd’s control socket exists, else sysfs, and the start-up line says which', () => {
  assert.equal(hotplugMode((p) => p === UDEVD_CONTROL), 'udev');
  assert.equal(hotplugMode(() => false), 'sysfs');
  assert.match(hotplugModeText('udev'), /through udevd/);
  assert.match(hotplugModeText('sysfs'), /without udevd.*cannot open a printer attached after start/);
});
