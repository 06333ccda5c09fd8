// PDFs to a ZPL printer through the HTTP API: rendered for pdf_*, untouched for raw_*, failures confined to their job.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { boxedPagePdf, manyPagesPdf } from '../fixtures/pdf/hostile-pdf';

let d: DaemonHandle;
let emulator: ZplPrinterEmulator;
let path: string;

before(async () => {
  d = await startDaemon();
  emulator = new ZplPrinterEmulator();
  const port = await emulator.start();
  const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } });
  path = res.body.result.content.path;
});
after(async () => {
  await d.stop();
  await emulator.stop();
});

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

test('pdf_base64 is rendered: one ^XA…^XZ per page with ^PW/^LL from the page and a Z64 ^GFA graphic', async () => {
  const res = await d.api('POST', `/print/${path}`, { body: { content: b64(boxedPagePdf(288, 432)), contentType: 'pdf_base64', copies: 2 } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const zpl = emulator.jobs().at(-1)!.toString('latin1');
  assert.match(zpl, /^\^XA\^PW812\^LL1218/);
  assert.match(zpl, /\^GFA,\d+,\d+,102,:Z64:[A-Za-z0-9+/=]+:[0-9a-f]{4}/i);
  assert.match(zpl, /\^PQ2/);
  assert.equal(zpl.match(/\^XA/g)?.length, 1);
});

test('paperSize forces the label size', async () => {
  const res = await d.api('POST', `/print/${path}`, { body: { content: b64(boxedPagePdf(288, 432)), contentType: 'pdf_base64', options: { paperSize: '2x1' } } });
  assert.equal(res.status, 200);
  assert.match(emulator.jobs().at(-1)!.toString('latin1'), /^\^XA\^PW406\^LL203/);
});

test('raw_base64 carrying a PDF passes through untouched', async () => {
  const pdf = boxedPagePdf(144, 72);
  const res = await d.api('POST', `/print/${path}`, { body: { content: b64(pdf), contentType: 'raw_base64' } });
  assert.equal(res.status, 200);
  assert.deepEqual(emulator.jobs().at(-1), Buffer.from(pdf));
});

test('a hostile PDF fails only its own job with a clear error; the next PDF prints', async () => {
  const garbage = await d.api('POST', `/print/${path}`, { body: { content: b64(Buffer.from('%PDF-1.7\nnot really a pdf')), contentType: 'pdf_base64' } });
  assert.equal(garbage.status, 502);
  assert.equal(garbage.body.result.content.state, 'failed');
  assert.match(garbage.body.result.content.error, /PDF/i);
  const huge = await d.api('POST', `/print/${path}`, { body: { content: b64(manyPagesPdf(10_000)), contentType: 'pdf_base64' } });
  assert.equal(huge.status, 502);
  assert.match(huge.body.result.content.error, /10000|page/i);
  const before = emulator.jobs().length;
  const ok = await d.api('POST', `/print/${path}`, { body: { content: b64(boxedPagePdf(288, 432)), contentType: 'pdf_base64' } });
  assert.equal(ok.status, 200);
  assert.equal(emulator.jobs().length, before + 1);
});
