// CUPS's own conformance files (ipp-1.1.test, ipp-2.0.test, ipp-everywhere.test), run by the real ipptool against a
// shared label printer and a shared receipt printer. Every test passes, or is skipped for a reason named below.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { writeIpptoolSamples } from '../fixtures/ipptool/sample-files';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { tempDir } from '../helpers/temp-dir';
import { ipptool } from './ipptool';

/** Why a test may be skipped, by the test names it covers (an unexplained skip fails the run). */
const SKIP_REASONS: Array<{ names: RegExp; why: string; kinds: Array<'label' | 'receipt'> }> = [
  { names: /^(RFC 8011 section 4\.2\.2: Print-URI|Print-URI with bad URI|RFC 8011 section 4\.3\.2: Send-URI|Send-URI with bad URI)/, why: 'Print-URI and Send-URI are optional (not in PWG 5100.14)', kinds: ['label', 'receipt'] },
  { names: /^RFC 8011 section 4\.2\.4: Create-Job Operation$/, why: 'the Create-Job of the Send-URI sequence (Create-Job + Send-Document is tested and passes)', kinds: ['label', 'receipt'] },
  { names: /^Print-Job with (A4|US Letter) (PDF|PostScript)/, why: 'label and receipt printers offer no A4 or US Letter media, nor PostScript, duplex, job-sheets or 2-up', kinds: ['label', 'receipt'] },
  { names: /^Print-Job with (Color|Grayscale) JPEG on (A4|US Letter)$/, why: 'no A4 or US Letter media', kinds: ['label', 'receipt'] },
  { names: /^Print-Job with (Color|Grayscale) JPEG on 4x6$/, why: 'a receipt printer has no 4x6 media', kinds: ['receipt'] },
  { names: /^Print-Job with JPEG on 4x6, (Draft|Normal|High) Quality$/, why: 'ipp-1.1.test gates these on a `print-quality` printer attribute, which is not an IPP attribute (print-quality-supported is returned)', kinds: ['label', 'receipt'] },
  { names: /^(Print-Job with job-hold-until|Release-Job)$/, why: 'Hold-Job and Release-Job are optional (not in PWG 5100.14)', kinds: ['label', 'receipt'] },
  { names: /^Print (color\.jpg|gray\.jpg|document|onepage)-\S+ @ (150|180|300|360|600|720)dpi, /, why: 'the PWG raster samples come at 150-720 dpi; these printers take raster at their own 203 dpi', kinds: ['label', 'receipt'] },
];

const TEST_FILES = ['ipp-1.1.test', 'ipp-2.0.test', 'ipp-everywhere.test'];

let d: InProcessDaemon;
const emulators: ZplPrinterEmulator[] = [];
const printers: Record<'label' | 'receipt', { uri: string; emulator: ZplPrinterEmulator }> = {} as never;
const dir = tempDir('ipptool-run');

before(async () => {
  d = await startInProcess({ usb: () => new FakeUsbBus() });
  for (const [kind, content] of [['label', 'zpl'], ['receipt', 'raw']] as const) {
    const emulator = new ZplPrinterEmulator();
    emulators.push(emulator);
    const port = await emulator.start();
    const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content } });
    const { path, id } = added.body.result.content;
    const shared = await d.api('PATCH', `/printers/${path}`, { body: { share: { ipp: true, rawPort: null } } });
    assert.equal(shared.status, 200, JSON.stringify(shared.body));
    printers[kind] = { uri: `ipp://127.0.0.1:${d.ippPort}/ipp/print/${id}`, emulator };
  }
  writeFileSync(join(dir, 'label.pdf'), await shippingLabelPdf());
  await writeIpptoolSamples(dir);
});
after(async () => {
  await d.stop();
  await Promise.all(emulators.map((e) => e.stop()));
});

for (const kind of ['label', 'receipt'] as const) {
  describe(`shared ${kind} printer`, () => {
    for (const file of TEST_FILES) {
      test(`ipptool -tf label.pdf ${file}: no test fails, each skipped one has a named reason`, async () => {
        const run = await ipptool(dir, 'label.pdf', printers[kind].uri, file);
        assert.deepEqual(run.failed, [], run.output);
        assert.equal(run.code, 0, run.output);
        assert.ok(run.passed.length >= 29, `only ${run.passed.length} tests passed\n${run.output}`);
        const unexplained = run.skipped.filter((name) => !SKIP_REASONS.some((r) => r.kinds.includes(kind) && r.names.test(name)));
        assert.deepEqual(unexplained, [], 'skipped without a named reason');
      });
    }
  });
}

test('the label printer received the ipptool jobs as ZPL labels, and each is a job of the spooler (GET /jobs)', async () => {
  const labels = printers.label.emulator.jobs().map((j) => j.toString('latin1'));
  assert.ok(labels.length > 0 && labels.every((zpl) => zpl.startsWith('^XA') && zpl.includes('^GFA')), 'rendered labels arrived');
  const jobs = (await d.api('GET', '/jobs')).body.result.content as Array<{ contentType: string; source: string; state: string }>;
  const ippJobs = jobs.filter((j) => j.contentType === 'application/pdf' || j.contentType === 'image/jpeg');
  assert.ok(ippJobs.length >= labels.length, `${ippJobs.length} IPP jobs for ${labels.length} labels`);
});
