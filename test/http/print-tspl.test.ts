// TSPL label printers end to end over TCP 9100: the daemon on port 0, the TSPL emulator decoding BITMAP back to a picture.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { decodePng } from '../../src/render/png-decode';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { TsplPrinterEmulator } from '../fixtures/tspl-printer';
import { startDaemon, type DaemonHandle } from '../helpers/daemon-process';
import { until } from '../helpers/until';
import { readLabelBarcodes } from '../render/barcode-reader';

const FAST_TIMEOUTS = { PRINTPROXY_TCP_CONNECT_TIMEOUT_MS: '1000', PRINTPROXY_TCP_IDLE_TIMEOUT_MS: '1500', PRINTPROXY_TCP_QUERY_TIMEOUT_MS: '300' };
const TSPL_JOB = 'SIZE 2,1\r\nGAP 2 mm,0 mm\r\nCLS\r\nTEXT 10,10,"3",0,1,1,"Hello \\"TSPL\\""\r\nBARCODE 10,60,"128",80,1,0,2,2,"A-1"\r\nPRINT 1,1\r\n';

let d: DaemonHandle;
const emulators: TsplPrinterEmulator[] = [];

/** A TSPL emulator on a port of its own, added to the daemon as a `tspl` printer over TCP. */
async function addTsplPrinter(): Promise<{ emulator: TsplPrinterEmulator; path: string }> {
  const emulator = new TsplPrinterEmulator();
  const port = await emulator.start();
  emulators.push(emulator);
  const res = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'tspl', tags: [] } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { emulator, path: res.body.result.content.path };
}

async function pollPrinter(path: string, wanted: (printer: any) => boolean): Promise<any> {
  let last: any;
  await until(`printer ${path} reaches the expected status`, async () => wanted((last = (await d.api('GET', `/printers/${path}`)).body.result.content)));
  return last;
}

before(async () => {
  d = await startDaemon({ env: FAST_TIMEOUTS });
});
after(async () => {
  await d.stop();
  await Promise.all(emulators.map((e) => e.stop()));
});

describe('printing', () => {
  test('content tspl is kept; a PDF shipping label prints as one BITMAP with PRINT 1,copies, and its Code 128 and QR code decode', async () => {
    const { emulator, path } = await addTsplPrinter();
    assert.equal((await d.api('GET', `/printers/${path}`)).body.result.content.content, 'tspl');
    const content = Buffer.from(await shippingLabelPdf()).toString('base64');
    const res = await d.api('POST', `/print/${path}`, { body: { content, contentType: 'pdf_base64', copies: 2 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await emulator.waitForLabels(1, 10_000);
    assert.equal(emulator.jobs().length, 1, 'one job on the wire');
    assert.equal(emulator.printed.length, 1, 'one label, printed twice by PRINT 1,2');
    const [label] = emulator.printed;
    assert.deepEqual(label.bitmaps, ['0,0,102,1218,0'], 'one BITMAP in mode 0 covering the label');
    assert.equal(label.size, '4,6');
    assert.deepEqual([label.sets, label.copies], [1, 2]);
    const texts = (await readLabelBarcodes(label.picture, label.picture.width)).map((r) => `${r.format}:${r.text}`);
    assert.ok(texts.includes('Code128:1Z999AA10123456784'), `Code 128 not read, found ${texts.join(', ')}`);
    assert.ok(texts.includes('QRCode:https://example.com/t/1Z999AA10123456784'), `QR code not read, found ${texts.join(', ')}`);
  });

  test('TSPL sent as raw bytes passes through byte for byte, once, whatever the copies', async () => {
    const { emulator, path } = await addTsplPrinter();
    const res = await d.api('POST', `/print/${path}`, { body: { content: Buffer.from(TSPL_JOB, 'latin1').toString('base64'), contentType: 'raw_base64', copies: 3 } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await emulator.waitForJobs(1, 10_000);
    assert.deepEqual(emulator.jobs(), [Buffer.from(TSPL_JOB, 'latin1')]);
  });

  test('the test print is the TSPL test label, and its Code 128 names the printer', async () => {
    const { emulator, path } = await addTsplPrinter();
    const res = await d.api('POST', `/print/${path}/test`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await emulator.waitForLabels(1, 10_000);
    assert.match(emulator.jobs()[0].toString('latin1'), /^SIZE 4,6\r\n/);
    const texts = (await readLabelBarcodes(emulator.printed[0].picture, emulator.printed[0].picture.width)).map((r) => `${r.format}:${r.text}`);
    assert.ok(texts.includes(`Code128:${path}`), `Code 128 not read, found ${texts.join(', ')}`);
  });

  test('a preview is a PNG of the label the printer would get (4x6 in at 203 dpi), and prints nothing', async () => {
    const { emulator, path } = await addTsplPrinter();
    const body = { contentType: 'pdf_base64', content: Buffer.from(await shippingLabelPdf()).toString('base64') };
    const res = await fetch(`${d.baseUrl}/api/v1/preview/${encodeURIComponent(path)}`, { method: 'POST', headers: { 'X-API-Key': d.apiKey, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    const image = decodePng(new Uint8Array(await res.arrayBuffer()));
    assert.deepEqual([image.width, image.height], [812, 1218]);
    assert.equal(emulator.jobs().length, 0);
  });
});

describe('pre-flight and status through <ESC>!?', () => {
  const cases: Array<[string, (e: TsplPrinterEmulator) => void, Record<string, boolean>, string, string]> = [
    ['paper out', (e) => (e.state.paperOut = true), { paperOut: true }, 'Printer is out of paper (load labels and close the head)', 'media-empty-error'],
    ['head open', (e) => (e.state.headOpen = true), { headOpen: true }, 'Print head is open (close the print head)', 'cover-open-error'],
  ];
  for (const [name, apply, flags, message, reason] of cases) {
    test(`${name}: 503 with the readiness body, nothing printed, status reason ${reason}`, async () => {
      const { emulator, path } = await addTsplPrinter();
      apply(emulator);
      const res = await d.api('POST', `/print/${path}`, { body: { content: Buffer.from(TSPL_JOB).toString('base64'), contentType: 'raw_base64' } });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.result.message, 'Printer is not ready');
      assert.deepEqual(res.body.result.content, { ready: false, paperOut: false, paused: false, headOpen: false, ribbonOut: false, ...flags, errors: [message] });
      assert.equal(emulator.jobs().length, 0);
      const printer = await pollPrinter(path, (p) => p.status === 'error');
      assert.deepEqual(printer.statusReasons, [reason]);
    });
  }

  test('a ready printer reads online; a silent one is attempted (the job prints) and reads unknown', async () => {
    const { emulator, path } = await addTsplPrinter();
    await pollPrinter(path, (p) => p.status === 'online');
    emulator.silent = true;
    const res = await d.api('POST', `/print/${path}`, { body: { content: Buffer.from(TSPL_JOB).toString('base64'), contentType: 'raw_base64' } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(emulator.resets, 0, 'a TSPL printer is never reset by the daemon');
    await pollPrinter(path, (p) => p.status === 'unknown');
  });
});
