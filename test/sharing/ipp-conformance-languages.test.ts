// CUPS's ipp-everywhere.test, run by the real ipptool against shared label printers of the languages beyond ZPL: TSPL
// and EPL2 (their emulators on TCP 9100) and a DYMO LabelWriter (its emulator behind a fake USB device). Every test
// passes, or is skipped for a reason named below; the jobs reach each printer as its own labels.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DymoPrinterEmulator } from '../fixtures/dymo-printer';
import { Epl2PrinterEmulator } from '../fixtures/epl2-printer';
import { deviceIdReply, FakeUsbBus } from '../fixtures/fake-usb';
import { writeIpptoolSamples } from '../fixtures/ipptool/sample-files';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { TsplPrinterEmulator } from '../fixtures/tspl-printer';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { tempDir } from '../helpers/temp-dir';
import { ipptool } from './ipptool';

/** Why a test may be skipped (the label printer's reasons of ipp-conformance.test.ts); an unexplained skip fails the run. */
const SKIP_REASONS: Array<{ names: RegExp; why: string }> = [
  { names: /^(RFC 8011 section 4\.2\.2: Print-URI|Print-URI with bad URI|RFC 8011 section 4\.3\.2: Send-URI|Send-URI with bad URI)/, why: 'Print-URI and Send-URI are optional (not in PWG 5100.14)' },
  { names: /^RFC 8011 section 4\.2\.4: Create-Job Operation$/, why: 'the Create-Job of the Send-URI sequence (Create-Job + Send-Document is tested and passes)' },
  { names: /^Print-Job with JPEG on 4x6, (Draft|Normal|High) Quality$/, why: 'ipp-1.1.test gates these on a `print-quality` printer attribute, which is not an IPP attribute (print-quality-supported is returned)' },
  { names: /^(Print-Job with job-hold-until|Release-Job)$/, why: 'Hold-Job and Release-Job are optional (not in PWG 5100.14)' },
  { names: /^Print-Job with (A4|US Letter) (PDF|PostScript)/, why: 'label printers offer no A4 or US Letter media, nor PostScript, duplex, job-sheets or 2-up' },
  { names: /^Print-Job with (Color|Grayscale) JPEG on (A4|US Letter)$/, why: 'no A4 or US Letter media' },
  { names: /^Print-Job with (Color|Grayscale) JPEG on 4x6$/, why: 'a LabelWriter 450 takes labels at most 2.3 in wide: it offers no 4x6 media' },
  { names: /^Print (color\.jpg|gray\.jpg|document|onepage)-\S+ @ (150|180|300|360|600|720)dpi, /, why: 'the PWG raster samples come at 150-720 dpi; these printers take raster at their own resolution' },
];

/** A label printer of one language, added to the daemon: its record's path, and the labels it printed so far. */
interface SharedPrinter {
  path: string;
  labelsPrinted(): number;
}

let d: InProcessDaemon;
const bus = new FakeUsbBus();
const stops: Array<() => Promise<void>> = [];
const dir = tempDir('ipptool-labels');

/** Adds a printer of `content` on the emulator at `port` (TCP 9100 style). */
async function networkPrinter(port: number, content: string): Promise<string> {
  const added = await d.api('POST', '/printers', { body: { connection: { type: 'network', host: '127.0.0.1', port, protocol: 'tcp' }, content } });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  return added.body.result.content.path;
}

const PRINTERS: Record<string, () => Promise<SharedPrinter>> = {
  tspl: async () => {
    const tsc = new TsplPrinterEmulator();
    const port = await tsc.start();
    stops.push(() => tsc.stop());
    return { path: await networkPrinter(port, 'tspl'), labelsPrinted: () => tsc.printed.length };
  },
  epl2: async () => {
    const lp2844 = new Epl2PrinterEmulator();
    const port = await lp2844.listen();
    stops.push(() => lp2844.stop());
    return { path: await networkPrinter(port, 'epl2'), labelsPrinted: () => lp2844.printed.length };
  },
  dymo: async () => {
    const labelWriter = new DymoPrinterEmulator({ model: '450' });
    const device = bus.add({ vendorId: 0x0922, productId: 0x0020, serialNumber: '01010112345600', hasInEndpoint: true, deviceIdReply: deviceIdReply('MFG:DYMO;CMD: ;MDL:LabelWriter 450;CLASS:PRINTER;') });
    device.respond = (chunk) => labelWriter.feed(chunk);
    assert.equal((await d.api('GET', '/discover')).status, 200);
    return { path: 'usb_sn_01010112345600', labelsPrinted: () => labelWriter.printed.length };
  },
};

before(async () => {
  d = await startInProcess({ usb: () => bus });
  writeFileSync(join(dir, 'label.pdf'), await shippingLabelPdf());
  await writeIpptoolSamples(dir);
});
after(async () => {
  await d.stop();
  for (const stop of stops) await stop();
});

for (const [language, make] of Object.entries(PRINTERS)) {
  describe(`a shared ${language} printer`, () => {
    let printer: SharedPrinter;
    let uri = '';
    before(async () => {
      printer = await make();
      const shared = await d.api('PATCH', `/printers/${printer.path}`, { body: { share: { ipp: true, rawPort: null } } });
      assert.equal(shared.status, 200, JSON.stringify(shared.body));
      uri = `ipp://127.0.0.1:${d.ippPort}/ipp/print/${shared.body.result.content.id}`;
    });

    test(`ipptool -tf label.pdf ipp-everywhere.test: no test fails, each skipped one has a named reason`, async () => {
      const run = await ipptool(dir, 'label.pdf', uri, 'ipp-everywhere.test');
      assert.deepEqual(run.failed, [], run.output);
      assert.equal(run.code, 0, run.output);
      assert.ok(run.passed.length >= 29, `only ${run.passed.length} tests passed\n${run.output}`);
      assert.deepEqual(run.skipped.filter((name) => !SKIP_REASONS.some((r) => r.names.test(name))), [], 'skipped without a named reason');
    });

    test('the printer printed the ipptool jobs as its own labels', () => {
      assert.ok(printer.labelsPrinted() > 0, 'labels were printed');
    });
  });
}
