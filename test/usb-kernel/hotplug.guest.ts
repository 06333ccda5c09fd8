// Hotplug in the guest, run twice by scripts/usb-kernel/run.mjs: with udevd (attach and detach seen through libusb)
// and without it (USB_KERNEL_UDEVD=0: the daemon says so at start; detach is seen from sysfs; a printer attached
// after start cannot be opened through libusb, and the daemon says that too). The printer is busy at start (usblp
// holds it and another process has its /dev/usb/lp node open): its serial, and so its path, come from sysfs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { libusbBackend } from '../../src/usb/libusb-backend';
import { createLogger } from '../../src/log';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until, valueWithin } from '../helpers/until';
import { GadgetPrinter, zebraSpec } from './gadget-client';
import { listedPrinter } from './listed-printer';

const WITH_UDEVD = process.env.USB_KERNEL_UDEVD !== '0';
const PATH = 'usb_sn_HOTPLUG01';
const lines: string[] = [];
let gadget: GadgetPrinter;
let holder: ChildProcess | null = null;
let d: InProcessDaemon;

before(async () => {
  gadget = await GadgetPrinter.start(zebraSpec({ serialNumber: 'HOTPLUG01' }));
  // devtmpfs makes the node without udevd too
  await until('usblp made a /dev/usb/lp node', () => existsSync('/dev/usb') && readdirSync('/dev/usb').some((n) => n.startsWith('lp')), 20_000);
  const node = `/dev/usb/${readdirSync('/dev/usb').find((n) => n.startsWith('lp'))}`;
  // another process holds the usblp node open, as a CUPS usb backend or a `cat > /dev/usb/lp0` would
  holder = spawn('sh', ['-c', `exec 3>${node}; echo open; exec sleep 600`], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => holder!.stdout!.once('data', () => resolve()));
  const logger = createLogger('info', (line) => lines.push(line));
  d = await startInProcess({ usb: () => libusbBackend(logger) });
});
after(async () => {
  holder?.kill();
  await d?.stop();
  await gadget?.stop();
});

const listed = (path: string): Promise<any> => listedPrinter(d, path);

test(`the start-up says how hotplug works (${WITH_UDEVD ? 'udevd' : 'no udevd'})`, async () => {
  const warnings: string[] = (await d.api('GET', '/status')).body.result.content.warnings;
  if (WITH_UDEVD) {
    assert.ok(lines.some((l) => / info USB hotplug through udevd/.test(l)), lines.join('\n'));
    assert.ok(!warnings.some((w) => /udevd/.test(w)), warnings.join('\n'));
  } else {
    assert.ok(lines.some((l) => / warn USB hotplug without udevd/.test(l)), lines.join('\n'));
    assert.ok(warnings.some((w) => /USB hotplug without udevd/.test(w)), warnings.join('\n'));
  }
});

test('the serial of a printer that cannot be opened at all comes from sysfs (usbfs nodes hidden under a tmpfs)', async () => {
  execFileSync('mount', ['-t', 'tmpfs', 'tmpfs', '/dev/bus/usb']);
  try {
    const device = (await libusbBackend().list()).find((x) => x.vendorId === 0x0a5f);
    assert.equal(device?.serialNumber, 'HOTPLUG01');
    assert.equal(device?.product, 'ZTC ZD421-203dpi ZPL');
  } finally {
    execFileSync('umount', ['/dev/bus/usb']);
  }
});

test('the printer, held by usblp and open in another process at start, is listed under usb_sn_<serial>', async () => {
  const printer = await valueWithin(`${PATH} is listed`, 30_000, () => listed(PATH));
  assert.deepEqual(printer.connection, { type: 'usb', serialNumber: 'HOTPLUG01' });
  assert.equal(printer.content, 'zpl');
});

test('it prints once the other process let go', async () => {
  holder?.kill();
  holder = null;
  await gadget.clear();
  const res = await d.api('POST', `/print/${PATH}`, { body: { content: '^XA^FDhotplug^FS^XZ', contentType: 'zpl' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await until('the gadget read the label', async () => (await gadget.received()).toString('latin1').endsWith('^XA^FDhotplug^FS^XZ'), 20_000);
});

test('a detach is seen: the printer leaves the list', async () => {
  await gadget.unplug();
  await until(`${PATH} is gone after the unplug`, async () => (await listed(PATH)) === null, 30_000);
});

test(WITH_UDEVD ? 'a re-attach is seen: the printer is listed again under the same path' : 'a re-attach is not visible to libusb without udevd, and the daemon says so', async () => {
  await gadget.plug();
  if (WITH_UDEVD) {
    const back = await valueWithin(`${PATH} is back after the re-plug`, 30_000, () => listed(PATH));
    assert.equal(back.content, 'zpl');
    return;
  }
  await until('the daemon warned of a device libusb cannot see', () => lines.some((l) => / warn USB device attached at \d+-[\d.]+ is not visible to libusb: udevd is not running/.test(l)), 30_000);
  assert.equal(await listed(PATH), null);
});

test('a second printer attached while running', async () => {
  const epson = await GadgetPrinter.start({
    name: 'epson',
    vendorId: 0x04b8,
    productId: 0x0e28,
    serialNumber: 'HOTPLUG02',
    manufacturer: 'EPSON',
    product: 'TM-T20III',
    pnpString: 'MFG:EPSON;CMD:ESC/POS;MDL:TM-T20III;CLS:PRINTER;',
  });
  try {
    if (WITH_UDEVD) {
      const printer = await valueWithin('the Epson is listed as it attaches', 30_000, () => listed('usb_sn_HOTPLUG02'));
      assert.equal(printer.content, 'raw');
    } else {
      const before = lines.filter((l) => /is not visible to libusb/.test(l)).length;
      await until('the daemon warned of the second device', () => lines.filter((l) => /is not visible to libusb/.test(l)).length > before, 30_000);
      assert.equal(await listed('usb_sn_HOTPLUG02'), null);
    }
  } finally {
    await epson.stop();
  }
  if (WITH_UDEVD) await until('the Epson is unlisted after it went', async () => (await listed('usb_sn_HOTPLUG02')) === null, 30_000);
});
