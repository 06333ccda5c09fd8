// A Zebra LP 2844 gadget in EPL2 (its 1284 id says COMMAND SET:EPL) on the guest's real USB stack: discovery finds it
// as epl2, a PDF label arrives as one EPL2 GW graphic whose Code 128 and QR code read back, EPL2 passes byte for byte,
// and paper out, answered to `^ee` on bulk IN, fails a `wait: true` job with 503 before anything is sent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Epl2PrinterEmulator } from '../fixtures/epl2-printer';
import type { InProcessDaemon } from '../helpers/in-process-daemon';
import { valueWithin } from '../helpers/until';
import { epl2Spec, type GadgetPrinter } from './gadget-client';
import { labelGadgetTests } from './label-gadget-tests';

const STATUS_QUERY = '^ee\r\n';
const EPL2_JOB = 'N\r\nq406\r\nQ203,24\r\nA20,20,0,3,1,1,N,"gadget"\r\nP1\r\n';
const withoutQueries = (received: Buffer) => Buffer.from(received.toString('latin1').split(STATUS_QUERY).join(''), 'latin1');
let gadget: GadgetPrinter;
let d: InProcessDaemon;

labelGadgetTests(
  {
    spec: epl2Spec(),
    content: 'epl2',
    model: /LP 2844/,
    labels: (received) => {
      const emulator = new Epl2PrinterEmulator();
      emulator.feed(received);
      return emulator.printed.map((label) => label.picture);
    },
    withoutQueries,
  },
  (g, daemon) => {
    gadget = g;
    d = daemon;
  },
);

test('EPL2 passes to the gadget byte for byte', async () => {
  await gadget.clear();
  const res = await d.api('POST', `/print/usb_sn_${epl2Spec().serialNumber}`, { body: { content: Buffer.from(EPL2_JOB, 'latin1').toString('base64'), contentType: 'raw_base64' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const sent = await valueWithin('the gadget read the EPL2 job', 30_000, async () => {
    const bytes = withoutQueries(await gadget.received());
    return bytes.length >= EPL2_JOB.length ? bytes : null;
  });
  assert.equal(sent.toString('latin1'), EPL2_JOB);
});
