// A printer that stalls its bulk OUT endpoint, on a FunctionFS gadget (usb_f_printer cannot stall): the daemon clears
// the halt and retries once, as CUPS's usb-libusb.c does; a second stall fails the job with a clear error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { libusbBackend } from '../../src/usb/libusb-backend';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until, valueWithin } from '../helpers/until';
import { GadgetPrinter } from './gadget-client';

const PATH = 'usb_sn_FFSSTALL1';
let gadget: GadgetPrinter;
let d: InProcessDaemon;

before(async () => {
  gadget = await GadgetPrinter.start(
    {
      name: 'ffsstall',
      vendorId: 0x04b8,
      productId: 0x0e28,
      serialNumber: 'FFSSTALL1',
      manufacturer: 'EPSON',
      product: 'TM-T20III',
      pnpString: 'MFG:EPSON;CMD:ESC/POS;MDL:TM-T20III;CLS:PRINTER;',
    },
    'ffs-printer.ts',
  );
  d = await startInProcess({ usb: libusbBackend });
  await valueWithin(`${PATH} is listed`, 60_000, async () => (await d.api('GET', `/printers/${PATH}`)).status === 200);
});
after(async () => {
  await d?.stop();
  await gadget?.stop();
});

function receipt(size: number): Buffer {
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = 0x20 + (i % 90);
  return body;
}

test('a stall is cleared (clear-halt) and the transfer retried: the job completes byte for byte', async () => {
  await gadget.clear();
  const halts = await gadget.setEndpoint({ haltOnceAfterBytes: 16 * 1024 });
  const body = receipt(40 * 1024);
  const res = await d.api('POST', `/print/${PATH}`, { raw: body });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await until('the gadget has the whole job', async () => (await gadget.received()).length >= body.length, 30_000);
  assert.deepEqual(await gadget.received(), body);
  assert.equal(await gadget.setEndpoint({}), halts + 1, 'the gadget halted its endpoint once');
});

test('a second stall after the clear fails the job with a clear error; the next job prints', async () => {
  await gadget.clear();
  await gadget.setEndpoint({ haltAlways: true });
  const res = await d.api('POST', `/print/${PATH}`, { raw: receipt(40 * 1024) });
  assert.equal(res.status, 502, JSON.stringify(res.body));
  assert.equal(res.body.result.content.errorCode, 'IO');
  assert.match(res.body.result.content.error, /the printer stalled the transfer again after its endpoint was cleared after \d+ of 40960 bytes$/);
  console.log(`# second stall: ${res.body.result.content.error}`);
  await gadget.setEndpoint({ haltAlways: false });
  await gadget.clear();
  const next = receipt(1000);
  const ok = await d.api('POST', `/print/${PATH}`, { raw: next });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  await until('the next job arrived', async () => (await gadget.received()).equals(next), 30_000);
});
