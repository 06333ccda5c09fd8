// `printproxyd usb-list` on this machine (real libusb, no USB devices) and on a fake bus.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runUsbListCommand } from '../../src/usb/usb-list-command';
import { deviceIdReply, FakeUsbBus } from '../fixtures/fake-usb';

test('with the real libusb it prints a JSON list and exits 0', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'src', 'main.ts'), 'usb-list'], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.ok(Array.isArray(JSON.parse(run.stdout)));
});

test('on a fake bus it shows ids, classes, the 1284 id and the path', async () => {
  const bus = new FakeUsbBus();
  bus.add({ vendorId: 0x0a5f, productId: 0x0166, serialNumber: 'ZB1', deviceIdReply: deviceIdReply('MFG:Zebra;CMD:ZPL;MDL:ZD421;') });
  bus.add({ vendorId: 0x046d, productId: 0xc52b, interfaceClass: 3 });
  let out = '';
  assert.equal(await runUsbListCommand(bus, (t) => (out += t), () => undefined), 0);
  const rows = JSON.parse(out);
  assert.equal(rows.length, 2);
  assert.deepEqual([rows[0].id, rows[0].path, rows[0].deviceId, rows[0].classes], ['0a5f:0166', 'usb_sn_ZB1', 'MFG:Zebra;CMD:ZPL;MDL:ZD421;', [7]]);
  assert.deepEqual([rows[1].id, rows[1].path, rows[1].printerInterface], ['046d:c52b', null, null]);
});

test('two printers reporting the same serial get port-based paths, never a shared one', async () => {
  const bus = new FakeUsbBus();
  bus.add({ vendorId: 0x0fe6, productId: 0x811e, serialNumber: '1234567890', ports: [1] });
  bus.add({ vendorId: 0x0fe6, productId: 0x811e, serialNumber: '1234567890', ports: [2] });
  let out = '';
  await runUsbListCommand(bus, (t) => (out += t), () => undefined);
  const paths = JSON.parse(out).map((r: any) => r.path);
  assert.deepEqual(paths, ['usb_sn_0fe6-811e-port-1-1', 'usb_sn_0fe6-811e-port-1-2']);
});
