// Every language on every transport it declares, through the whole daemon: the shipping label PDF (a Code 128 and a
// QR code) is printed with POST /print, the bytes the printer got are read back into labels, and zxing reads both codes.
// A language or a transport added to the tables without a printer here fails the first test.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';
import { LANGUAGES, type LanguageModule } from '../../src/languages';
import { shippingLabelPdf } from '../fixtures/pdf/barcode-pdf';
import { FakeUsbBus } from '../fixtures/fake-usb';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { readLabelBarcodes } from '../render/barcode-reader';
import { LANGUAGE_RIGS, type PrinterRig, type RigContext } from './language-rigs';

const CODES = ['Code128:1Z999AA10123456784', 'QRCode:https://example.com/t/1Z999AA10123456784'];

const bus = new FakeUsbBus();
let d: InProcessDaemon;
let pdf: Uint8Array;
const stops: Array<() => Promise<void>> = [];
const context: RigContext = {
  bus,
  api: (method, path, body) => d.api(method, path, body === undefined ? {} : { body }),
  onStop: (stop) => void stops.push(stop),
};

before(async () => {
  d = await startInProcess({ usb: () => bus });
  pdf = await shippingLabelPdf();
});
after(async () => {
  await d.stop();
  for (const stop of stops) await stop();
});

/** Every barcode read in the labels, as `Format:text`. */
async function codesIn(labels: MonoBitmap[]): Promise<string[]> {
  const found = new Set<string>();
  for (const label of labels) for (const r of await readLabelBarcodes(label, label.width)) if (r.isValid) found.add(`${r.format}:${r.text}`);
  return [...found].sort();
}

test('every language has a printer here for each transport it declares, and none for others', () => {
  for (const language of Object.values(LANGUAGES)) {
    const rigs = LANGUAGE_RIGS[language.name] ?? {};
    assert.deepEqual(Object.keys(rigs).sort(), [...language.transports].sort(), `printers of ${language.name}`);
  }
});

for (const language of Object.values(LANGUAGES) as LanguageModule[]) {
  describe(`${language.name}`, () => {
    for (const transport of language.transports) {
      test(`a PDF label to a ${language.name} printer over ${transport}: both codes read back from the bytes it got`, async () => {
        const make = LANGUAGE_RIGS[language.name]?.[transport];
        assert.ok(make, `a ${language.name} printer over ${transport}`);
        const rig: PrinterRig = await make(context);
        const printed = await d.api('POST', `/print/${rig.path}`, { body: { contentType: 'pdf_base64', content: Buffer.from(pdf).toString('base64') } });
        assert.equal(printed.status, 200, JSON.stringify(printed.body));
        assert.equal(printed.body.result.content.state, 'completed');
        const labels = await rig.labels();
        assert.ok(labels.length >= 1, 'a label arrived');
        assert.deepEqual(await codesIn(labels), CODES);
      });
    }
  });
}
