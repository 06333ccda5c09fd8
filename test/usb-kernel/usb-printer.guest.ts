// The real daemon, in the guest, against a printer gadget on the kernel's dummy host controller through libusb and usbfs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { libusbBackend } from '../../src/usb/libusb-backend';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until, valueWithin } from '../helpers/until';
import { GadgetPrinter, zebraSpec } from './gadget-client';
import { listedPrinter } from './listed-printer';

const PATH = 'usb_sn_D4J211111';
let gadget: GadgetPrinter;
let d: InProcessDaemon;

before(async () => {
  gadget = await GadgetPrinter.start(zebraSpec({ serialNumber: 'D4J211111' }));
  // a long write time limit: a silent printer must not time out before the test unplugs it
  d = await startInProcess({ usb: libusbBackend }, undefined, false, false, { PRINTPROXY_TCP_IDLE_TIMEOUT_MS: '30000' });
});
after(async () => {
  await d?.stop();
  await gadget?.stop();
});

/** File descriptors this process holds on usbfs device nodes (/dev/bus/usb/BBB/DDD). */
function usbfsHandles(): number {
  const { readdirSync, readlinkSync } = require('node:fs') as typeof import('node:fs');
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith('/dev/bus/usb/');
    } catch {
      return false;
    }
  }).length;
}

const listed = (path: string): Promise<any> => listedPrinter(d, path);

test('discovery finds the gadget by its serial, as a ZPL printer named from its IEEE 1284 id', async () => {
  const printer = await valueWithin(`${PATH} is listed`, 30_000, () => listed(PATH));
  assert.equal(printer.content, 'zpl');
  assert.match(printer.model, /ZD421/);
  assert.deepEqual(printer.connection, { type: 'usb', serialNumber: 'D4J211111' });
  assert.equal(printer.discovered, true);
});

test('a ZPL job arrives at the printer byte for byte, after its ~HS pre-flight', async () => {
  await gadget.clear();
  const label = '^XA^FO20,20^A0N,40,40^FDkernel usb^FS^XZ';
  const res = await d.api('POST', `/print/${PATH}`, { body: { content: label, contentType: 'zpl' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await until('the gadget read the whole label', async () => (await gadget.received()).length >= label.length, 20_000);
  // the Zebra answers ~HS on bulk IN, so the job's pre-flight asked it first
  assert.equal((await gadget.received()).toString('latin1'), `~HS\r\n${label}`);
});

test('unplugging the printer takes it off the list; plugging it back lists it again under the same path', async () => {
  await gadget.unplug();
  await until(`${PATH} is gone after the unplug`, async () => (await listed(PATH)) === null, 30_000);
  await gadget.plug();
  const back = await valueWithin(`${PATH} is back after the re-plug`, 30_000, () => listed(PATH));
  assert.equal(back.content, 'zpl');
});

test('a second printer plugged in while the daemon runs is listed as it attaches, and unlisted as it goes', async () => {
  const epson = await GadgetPrinter.start({
    name: 'epson',
    vendorId: 0x04b8,
    productId: 0x0202,
    serialNumber: 'X5E9000123',
    manufacturer: 'EPSON',
    product: 'TM-T88V',
    pnpString: 'MFG:EPSON;CMD:ESC/POS;MDL:TM-T88V;CLS:PRINTER;',
  });
  try {
    const printer = await valueWithin('the Epson is listed after it attached', 30_000, () => listed('usb_sn_X5E9000123'));
    assert.equal(printer.content, 'raw');
    assert.match(printer.model, /TM-T88V/);
    assert.ok(await listed(PATH), 'the Zebra is still listed');
  } finally {
    await epson.stop();
  }
  await until('the Epson is unlisted after it went', async () => (await listed('usb_sn_X5E9000123')) === null, 30_000);
});

test('unplugged in the middle of a job: the job fails with a disconnect error within 5 s, and the next job after a re-plug prints', async () => {
  await valueWithin(`${PATH} is listed`, 30_000, () => listed(PATH));
  await gadget.clear();
  // a printer that takes the first 16 KiB and no more: the job's bulk OUT transfer waits, mid-job
  await gadget.set({ silentAfterBytes: 16 * 1024 });
  const big = '^XA' + 'z'.repeat(256 * 1024) + '^XZ';
  const queued = await d.api('POST', `/print/${PATH}`, { body: { content: big, contentType: 'zpl', wait: false } });
  assert.equal(queued.status, 201, JSON.stringify(queued.body));
  const jobId = queued.body.result.content.jobId;
  const job = async () => (await d.api('GET', `/jobs/${jobId}`)).body.result.content;
  await until('the printer has the first bytes of the job', async () => (await gadget.received()).length >= 16 * 1024, 30_000);
  await gadget.unplug();
  const failed = await valueWithin('the job failed within 5 s of the unplug', 5_000, async () => {
    const j = await job();
    return j.state === 'failed' || j.state === 'completed' ? j : null;
  });
  assert.equal(failed.state, 'failed');
  assert.match(failed.error, /the printer was disconnected after \d+ of 262150 bytes$/, JSON.stringify(failed));
  assert.equal(failed.errorCode, 'NO_DEVICE');
  await until('the handle of the unplugged printer is closed', () => usbfsHandles() === 0, 5_000);

  await gadget.set({ silent: false, silentAfterBytes: 0 });
  await gadget.plug();
  await valueWithin(`${PATH} is back after the re-plug`, 30_000, () => listed(PATH));
  await gadget.clear();
  const again = await d.api('POST', `/print/${PATH}`, { body: { content: '^XA^FDback^FS^XZ', contentType: 'zpl' } });
  assert.equal(again.status, 200, JSON.stringify(again.body));
  await until('the gadget read the next label', async () => (await gadget.received()).toString('latin1').endsWith('^XA^FDback^FS^XZ'), 20_000);
});
