// A real CUPS (cupsd from Debian's cups, in its own folder) adds a shared label printer driverless, as any Linux or
// macOS machine on the LAN would, and prints the test PDF with lp: the label reaches the ZPL printer, barcode readable.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CupsServer } from '../fixtures/cups-server';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { tempDir } from '../helpers/temp-dir';
import { until } from '../helpers/until';
import { readLabelBarcodes } from '../render/barcode-reader';
import { decodeLabels } from '../render/zpl-label-decode';

let d: InProcessDaemon;
const emulator = new ZplPrinterEmulator();
const cups = new CupsServer();
let uri: string;
let path: string;

before(async () => {
  d = await startInProcess({ usb: () => new FakeUsbBus() });
  const port = await emulator.start();
  const added = (await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content: 'zpl' } })).body.result.content;
  path = added.path;
  await d.api('PATCH', `/printers/${path}`, { body: { share: { ipp: true, rawPort: null } } });
  uri = `ipp://127.0.0.1:${d.ippPort}/ipp/print/${added.id}`;
  await cups.start();
});
after(async () => {
  await cups.stop();
  await d.stop();
  await emulator.stop();
});

test('lpadmin -m everywhere adds the shared printer; lp prints the PDF; the label arrives with its barcodes readable', async () => {
  await cups.run('lpadmin', ['-p', 'x', '-E', '-v', uri, '-m', 'everywhere']);
  // cupsd makes the driverless PPD from the printer's attributes in the background, after lpadmin returns
  let attributes = '';
  await until('cupsd made the PPD', async () => /PageSize/.test((attributes = await cups.run('lpoptions', ['-p', 'x', '-l']))), 30_000);
  assert.match(attributes, /PageSize[^\n]* \*4x6\b/, 'the driverless PPD defaults to the 4x6 label');
  const dir = tempDir('cups-print');
  const pdf = join(dir, 'label.pdf');
  writeFileSync(pdf, await shippingLabelPdf());
  const request = await cups.run('lp', ['-d', 'x', '-t', 'Shipping label', pdf]);
  assert.match(request, /request id is x-\d+/);
  try {
    await until('the label reached the printer', () => emulator.jobs().length > 0, 60_000);
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${cups.log().split('\n').filter((l) => /^[EW] /.test(l) || /backend|ipp:/.test(l)).slice(-30).join('\n')}`);
  }
  const zpl = emulator.jobs()[0].toString('latin1');
  const labels = decodeLabels(zpl);
  assert.equal(labels.length, 1, 'one label');
  assert.deepEqual([labels[0].pw, labels[0].ll], [812, 1218]);
  const found = (await readLabelBarcodes(labels[0].bitmap, labels[0].pw)).filter((r) => r.isValid).map((r) => [r.format, r.text]);
  assert.deepEqual(found.sort(), [['Code128', '1Z999AA10123456784'], ['QRCode', 'https://example.com/t/1Z999AA10123456784']].sort());
  const jobs = (await d.api('GET', '/jobs')).body.result.content as Array<{ printer: string; state: string; title: string }>;
  assert.ok(jobs.some((j) => j.printer === path && j.state === 'completed'), 'the CUPS job is a completed job in GET /jobs');
});
