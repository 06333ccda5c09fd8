// USB printers through the HTTP API, on a fake USB bus behind the same interface libusb sits behind.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { deviceIdReply, FakeUsbBus, type FakeUsbDevice } from '../fixtures/fake-usb';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until } from '../helpers/until';

let bus: FakeUsbBus;
let d: InProcessDaemon;
let zebra: FakeUsbDevice;
let epson: FakeUsbDevice;
let plain: FakeUsbDevice;

before(async () => {
  bus = new FakeUsbBus();
  zebra = bus.add({ vendorId: 0x0a5f, productId: 0x0166, serialNumber: 'D4J201234', ports: [1], kernelDriverBound: true, deviceIdReply: deviceIdReply('MANUFACTURER:Zebra Technologies;COMMAND SET:ZPL;MODEL:ZTC ZD421-203dpi ZPL;CLASS:PRINTER;') });
  epson = bus.add({ vendorId: 0x04b8, productId: 0x0202, serialNumber: 'X5E9000123', ports: [2], interfaceClass: 0xff, manufacturer: 'EPSON', product: 'TM-T88V', deviceIdReply: deviceIdReply('MFG:EPSON;CMD:ESCPOS;MDL:TM-T88V;CLS:PRINTER;', true) });
  plain = bus.add({ vendorId: 0x1234, productId: 0x5678, ports: [3, 1], deviceIdReply: deviceIdReply('MFG:Acme;MDL:LabelJet;CMD:ZPL;') });
  d = await startInProcess({ usb: () => bus });
});
after(async () => {
  await d.stop();
});


async function printer(path: string): Promise<any> {
  return (await d.api('GET', `/printers/${path}`)).body.result.content;
}

test('discovery finds a Zebra, an Epson receipt printer and a serial-less printer with the right paths and contents', async () => {
  const scan = await d.api('GET', '/discover');
  assert.equal(scan.status, 200);
  assert.equal(scan.body.result.content, null);
  const res = await d.api('GET', '/printers');
  const byPath = new Map<string, any>(res.body.result.content.map((p: any) => [p.path, p]));
  const z = byPath.get('usb_sn_D4J201234');
  assert.equal(z.content, 'zpl');
  assert.equal(z.model, 'Zebra Technologies ZTC ZD421-203dpi ZPL');
  assert.deepEqual(z.connection, { type: 'usb', serialNumber: 'D4J201234' });
  assert.equal(z.discovered, true);
  const e = byPath.get('usb_sn_X5E9000123');
  assert.equal(e.content, 'raw');
  assert.equal(e.model, 'EPSON TM-T88V');
  const p = byPath.get('usb_sn_1234-5678-port-1-3-1');
  assert.equal(p.content, 'zpl');
  assert.equal(p.model, 'Acme LabelJet');
});

test('a ZPL job and a receipt job arrive byte-exact; usblp is detached and, for Zebra, not re-attached', async () => {
  const label = '^XA^FO20,20^FDusb^FS^XZ';
  const z = await d.api('POST', '/print/usb_sn_D4J201234', { body: { content: label, contentType: 'zpl' } });
  assert.equal(z.status, 200, JSON.stringify(z.body));
  assert.equal(zebra.lastJob()!.toString(), label);
  assert.equal(zebra.kernelDetaches, 1);
  assert.equal(zebra.kernelReattaches, 0);
  const receipt = Buffer.from([0x1b, 0x40, 0x48, 0x69, 0x0a, 0x1d, 0x56, 0x01]);
  const r = await d.api('POST', '/print/usb_sn_X5E9000123', { raw: receipt });
  assert.equal(r.status, 200);
  assert.deepEqual(epson.lastJob(), receipt);
});

test('a job that is an exact multiple of the packet size ends with a zero-length packet', async () => {
  const before = plain.transfers.length;
  const body = 'A'.repeat(128);
  const res = await d.api('POST', '/print/usb_sn_1234-5678-port-1-3-1', { body: { content: Buffer.from(body).toString('base64'), contentType: 'raw_base64' } });
  assert.equal(res.status, 200);
  const sent = plain.transfers.slice(before);
  assert.equal(Buffer.concat(sent).toString(), body);
  assert.equal(sent.at(-1)!.length, 0, 'the last transfer is a zero-length packet');
});

test('port status reasons show in GET /printers/{path}; a receipt paper-out never fails the job', async () => {
  epson.portStatus = 0x20 | 0x10 | 0x08;
  const p = await printer('usb_sn_X5E9000123');
  assert.equal(p.status, 'error');
  assert.deepEqual(p.statusReasons, ['media-empty-error']);
  const res = await d.api('POST', '/print/usb_sn_X5E9000123/test');
  assert.equal(res.status, 200);
  assert.equal(epson.lastJob()!.subarray(0, 2).toString('hex'), '1b40');
  epson.portStatus = 0x18;
});

test('unplugged in the middle of a job: failed with a clear error; re-plugged: same path, same tags', async () => {
  await d.api('PATCH', '/printers/usb_sn_D4J201234', { body: { tags: ['shipping'] } });
  zebra.disconnectAfterBytes = 20_000;
  const big = '^XA' + 'z'.repeat(100_000) + '^XZ';
  const res = await d.api('POST', '/print/tag_shipping', { body: { content: big, contentType: 'zpl' } });
  assert.equal(res.status, 502);
  assert.match(res.body.result.content.error, /^usb 0a5f:0166 at 1-1: the printer was disconnected after \d+ of 100006 bytes$/);
  const gone = await d.api('GET', '/printers/usb_sn_D4J201234');
  assert.equal(gone.status, 404);
  const queued = await d.api('POST', '/print/usb_sn_D4J201234', { body: { content: '^XA^XZ', contentType: 'zpl' } });
  assert.equal(queued.status, 404);

  zebra.disconnectAfterBytes = 0;
  bus.attach(zebra);
  await until('the re-plugged printer is listed again', async () => (await d.api('GET', '/printers/usb_sn_D4J201234')).status === 200);
  const back = await printer('usb_sn_D4J201234');
  assert.deepEqual(back.tags, ['shipping']);
  const again = await d.api('POST', '/print/tag_shipping', { body: { content: '^XA^FDback^FS^XZ', contentType: 'zpl' } });
  assert.equal(again.status, 200);
  assert.equal(zebra.lastJob()!.toString(), '^XA^FDback^FS^XZ');
});

test('access denied and busy become job errors that say what to do', async () => {
  // the claim is made at first use and kept: printers that refuse it from the start
  const denied = bus.add({ vendorId: 0x1234, productId: 0x0001, serialNumber: 'DENIED1', ports: [5], deviceIdReply: deviceIdReply('MFG:Acme;MDL:LabelJet;CMD:ZPL;') });
  denied.failClaim = 'LIBUSB_ERROR_ACCESS';
  const busy = bus.add({ vendorId: 0x1234, productId: 0x0002, serialNumber: 'BUSY1', ports: [6], deviceIdReply: deviceIdReply('MFG:Acme;MDL:LabelJet;CMD:ZPL;') });
  busy.failClaim = 'LIBUSB_ERROR_BUSY';
  await until('both are listed', async () => (await d.api('GET', '/printers/usb_sn_BUSY1')).status === 200 && (await d.api('GET', '/printers/usb_sn_DENIED1')).status === 200);
  const refused = await d.api('POST', '/print/usb_sn_DENIED1', { body: { content: '^XA^XZ', contentType: 'zpl' } });
  assert.match(refused.body.result.content.error, /permission denied; .*99-printproxyd\.rules/);
  const held = await d.api('POST', '/print/usb_sn_BUSY1', { body: { content: '^XA^XZ', contentType: 'zpl' } });
  assert.match(held.body.result.content.error, /held by another process/);
  bus.detach(denied);
  bus.detach(busy);
});

test('a stall is cleared and the transfer retried once; a second stall fails the job; the next job prints', async () => {
  plain.haltOut = 1;
  const cleared = await d.api('POST', '/print/usb_sn_1234-5678-port-1-3-1', { body: { content: '^XA^FDonce^FS^XZ', contentType: 'zpl' } });
  assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
  assert.equal(plain.clearHalts, 1);
  assert.equal(plain.lastJob()!.toString(), '^XA^FDonce^FS^XZ');
  plain.haltOut = 2;
  const stalled = await d.api('POST', '/print/usb_sn_1234-5678-port-1-3-1', { body: { content: '^XA^XZ', contentType: 'zpl' } });
  assert.equal(stalled.status, 502);
  assert.equal(stalled.body.result.content.errorCode, 'IO');
  assert.match(stalled.body.result.content.error, /the printer stalled the transfer again after its endpoint was cleared after 0 of 6 bytes$/);
  plain.outHalted = false;
  plain.haltOut = 0;
  const ok = await d.api('POST', '/print/usb_sn_1234-5678-port-1-3-1', { body: { content: '^XA^FDok^FS^XZ', contentType: 'zpl' } });
  assert.equal(ok.status, 200);
  assert.equal(plain.lastJob()!.toString(), '^XA^FDok^FS^XZ');
});

test('a printer that stops reading mid-job holds it past the write time limit, and the rest goes once it reads again, each byte once', async () => {
  plain.acceptBytes = 40_000;
  const body = Buffer.alloc(100_000);
  for (let i = 0; i < body.length; i++) body[i] = 0x20 + (i % 90);
  const job = d.api('POST', '/print/usb_sn_1234-5678-port-1-3-1', { raw: body });
  // two timed-out transfers at least (1.5 s each), the first with part of its chunk taken
  const transfersAtStop = await (async () => {
    await until('the printer stopped reading', () => plain.acceptBytes === 0);
    return plain.transfers.length;
  })();
  await until('a timed-out transfer was tried again', () => plain.transfers.length >= transfersAtStop + 1, 10_000);
  plain.acceptBytes = null;
  const res = await job;
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(plain.lastJob(), body);
});

test('GET /printers/{path} in the middle of a job reads the live port status through the job’s claim; the job is undisturbed', async () => {
  const slow = bus.add({ vendorId: 0x04b8, productId: 0x0e28, serialNumber: 'SLOW1', ports: [4], kernelDriverBound: true, deviceIdReply: deviceIdReply('MFG:EPSON;CMD:ESCPOS;MDL:TM-T20III;') });
  // GET /settings lists printers without probing them, so no status is cached before the job
  await until('the hotplugged printer is listed', async () => (await d.api('GET', '/settings')).body.result.content.printers.some((p: any) => p.path === 'usb_sn_SLOW1'));
  const claimsBefore = slow.claims;
  slow.outDelayMs = 50;
  slow.portStatus = 0x38;
  const body = Buffer.alloc(100_000, 0x2e);
  const job = d.api('POST', '/print/usb_sn_SLOW1', { raw: body });
  // 100 kB at 50 ms a transfer: the job holds the interface for a while once its first transfer is under way
  await until('the job is sending', () => slow.transfers.length > 0);
  const mid = await printer('usb_sn_SLOW1');
  assert.equal(mid.status, 'error');
  assert.deepEqual(mid.statusReasons, ['media-empty-error']);
  const res = await job;
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(slow.lastJob(), body);
  assert.equal(slow.claims, claimsBefore, 'the job and the probe used the claim discovery made');
  assert.equal(slow.kernelDriverBound, false, 'the daemon keeps the printer while it runs: usblp is not re-attached after each use');
});
