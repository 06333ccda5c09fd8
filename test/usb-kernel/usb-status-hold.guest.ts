// The USB write path and status against the printer gadget on a real kernel stack: ~HS pre-flight and a paused
// printer holding jobs, a printer that stops reading mid-job, a cancel of a transfer in flight, Epson real-time status.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { libusbBackend } from '../../src/usb/libusb-backend';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { tempDir } from '../helpers/temp-dir';
import { until, valueWithin } from '../helpers/until';
import { GadgetPrinter, zebraSpec } from './gadget-client';
import { listedPrinter } from './listed-printer';

const PATH = 'usb_sn_HOLD1';
const EPSON_PATH = 'usb_sn_TMSTAT1';
const ENV = { PRINTPROXY_TCP_IDLE_TIMEOUT_MS: '1500' };
let gadget: GadgetPrinter;
let d: InProcessDaemon;

before(async () => {
  gadget = await GadgetPrinter.start(zebraSpec({ name: 'hold', serialNumber: 'HOLD1' }));
  d = await startInProcess({ usb: libusbBackend }, tempDir('usb-hold'), false, false, ENV);
  await valueWithin(`${PATH} is listed`, 30_000, () => listed(PATH));
});
after(async () => {
  await d?.stop();
  await gadget?.stop();
});

const listed = (path: string): Promise<any> => listedPrinter(d, path);

async function job(id: string): Promise<any> {
  return (await d.api('GET', `/jobs/${id}`)).body.result.content;
}

async function received(): Promise<string> {
  return (await gadget.received()).toString('latin1');
}

test('~HS pre-flight over USB: a paused gadget refuses wait:true with the TCP 503 texts; a wait:false job is held and prints once it resumes', async () => {
  await gadget.set({ paused: true });
  const refused = await d.api('POST', `/print/${PATH}`, { body: { content: '^XA^FDrefused^FS^XZ', contentType: 'zpl' } });
  assert.equal(refused.status, 503, JSON.stringify(refused.body));
  assert.deepEqual(refused.body.result.content.errors, ['Printer is paused (may need calibration — press the feed button)']);
  assert.equal(refused.body.result.content.paused, true);
  const status = await valueWithin('GET /printers says paused', 10_000, async () => {
    const p = await listed(PATH);
    return p?.statusReasons?.includes('paused') ? p : null;
  });
  assert.equal(status.status, 'error');

  await gadget.clear();
  const queued = await d.api('POST', `/print/${PATH}`, { body: { content: '^XA^FDheld^FS^XZ', contentType: 'zpl', wait: false } });
  assert.equal(queued.status, 201, JSON.stringify(queued.body));
  const id = queued.body.result.content.jobId;
  assert.equal((await job(id)).state, 'queued');
  assert.ok(!(await received()).includes('^FDheld'), 'nothing of the held job reached the printer');
  await gadget.set({ paused: false });
  await until('the held job completed once the printer resumed', async () => (await job(id)).state === 'completed', 30_000);
  assert.ok((await received()).endsWith('^XA^FDheld^FS^XZ'));
});

test('a printer that stops reading mid-job is waited for past the write time limit; the rest arrives once it reads again, each byte once', async () => {
  await gadget.clear();
  await gadget.set({ silentAfterBytes: 16 * 1024 });
  const body = '^XA' + 'y'.repeat(200 * 1024) + '^XZ';
  const queued = await d.api('POST', `/print/${PATH}`, { body: { content: body, contentType: 'zpl', wait: false } });
  assert.equal(queued.status, 201);
  const id = queued.body.result.content.jobId;
  await until('the printer has the first bytes', async () => (await gadget.received()).length >= 16 * 1024, 30_000);
  await gadget.set({ silent: false, silentAfterBytes: 0 });
  await until('the job completed', async () => ['completed', 'failed'].includes((await job(id)).state), 60_000);
  const done = await job(id);
  assert.equal(done.state, 'completed', JSON.stringify(done));
  assert.equal(await received(), `~HS\r\n${body}`, 'the pre-flight, then the label whole, no byte twice');
});

test('a cancel cancels the transfer in flight; the next job prints', async () => {
  await gadget.clear();
  await gadget.set({ silentAfterBytes: 8 * 1024 });
  const queued = await d.api('POST', `/print/${PATH}`, { body: { content: '^XA' + 'c'.repeat(100 * 1024) + '^XZ', contentType: 'zpl', wait: false } });
  const id = queued.body.result.content.jobId;
  await until('the printer has the first bytes', async () => (await gadget.received()).length >= 8 * 1024, 30_000);
  const canceled = await d.api('DELETE', `/jobs/${id}`);
  assert.equal(canceled.status, 200, JSON.stringify(canceled.body));
  await until('the job is canceled', async () => (await job(id)).error === 'Canceled', 10_000);
  await gadget.set({ silent: false, silentAfterBytes: 0 });
  await gadget.clear();
  const next = await d.api('POST', `/print/${PATH}`, { body: { content: '^XA^FDnext^FS^XZ', contentType: 'zpl' } });
  assert.equal(next.status, 200, JSON.stringify(next.body));
  await until('the next label arrived', async () => (await received()).endsWith('^XA^FDnext^FS^XZ'), 20_000);
});

test('an Epson-style gadget reports paper out, paper near end and cover open in statusReasons (DLE EOT), and still takes a job out of paper', async () => {
  const epson = await GadgetPrinter.start({
    name: 'tmstat',
    vendorId: 0x04b8,
    productId: 0x0202,
    serialNumber: 'TMSTAT1',
    manufacturer: 'EPSON',
    product: 'TM-T88V',
    pnpString: 'MFG:EPSON;CMD:ESC/POS;MDL:TM-T88V;CLS:PRINTER;',
  });
  try {
    await valueWithin('the Epson is listed', 30_000, () => listed(EPSON_PATH));
    await epson.set({ paperOut: true });
    const out = await valueWithin('paper out shows', 15_000, async () => {
      const p = await listed(EPSON_PATH);
      return p?.statusReasons?.includes('media-empty-error') ? p : null;
    });
    assert.equal(out.status, 'error');
    await epson.set({ paperOut: false, paperNearEnd: true, headOpen: true });
    const low = await valueWithin('near end and cover open show', 15_000, async () => {
      const p = await listed(EPSON_PATH);
      return p?.statusReasons?.includes('cover-open-error') && p.statusReasons.includes('media-low-warning') ? p : null;
    });
    console.log(`# epson statusReasons: ${JSON.stringify(out.statusReasons)} then ${JSON.stringify(low.statusReasons)}`);
    await epson.set({ paperOut: true, paperNearEnd: false, headOpen: false });
    await epson.clear();
    const receipt = Buffer.from([0x1b, 0x40, 0x48, 0x69, 0x0a, 0x1d, 0x56, 0x01]);
    const printed = await d.api('POST', `/print/${EPSON_PATH}`, { raw: receipt });
    assert.equal(printed.status, 200, JSON.stringify(printed.body));
    await until('the receipt arrived', async () => (await epson.received()).includes(receipt), 20_000);
  } finally {
    await epson.stop();
  }
});
