// The DYMO module's facts: USB and 1284 matching, label sizes the renderer parses, and a test label the emulator prints.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMediaSize } from '../../../src/util/media-size';
import { DYMO } from '../../../src/languages/dymo';
import { DYMO_450_DEVICE_ID } from '../../../src/languages/dymo/dymo-device-id';
import type { PrinterRecord } from '../../../src/schemas/printer';
import { parseDeviceId } from '../../../src/usb/ieee1284';
import { DymoPrinterEmulator } from '../../fixtures/dymo-printer';

const printer = (model?: string) => ({ id: 'ABCDEFGH', path: 'usb_x', model, content: DYMO.content, connection: { type: 'usb' }, tags: [] }) as unknown as PrinterRecord;

test('the module: USB only, LabelWriter raster passed through as application/vnd.dymo-lw, the table facts', () => {
  assert.deepEqual([DYMO.name, DYMO.content, DYMO.transports], ['dymo', 'dymo', ['usb']]);
  assert.deepEqual([DYMO.displayName, DYMO.defaultDpi, DYMO.rank], ['DYMO LabelWriter', 300, 40]);
  assert.equal(DYMO.passThroughMimeType, 'application/vnd.dymo-lw');
  assert.deepEqual(DYMO.ipp.declared, { 'application/vnd.dymo-lw': 'raw' });
  assert.equal(DYMO.device?.overNetwork, false);
  assert.equal('probe' in DYMO, false);
});

test('usb.matches: DYMO vendor with a LabelWriter product, or MFG DYMO + MDL LabelWriter; not a LabelManager or a Zebra', () => {
  const none = {};
  assert.equal(DYMO.usb!.matches(none, { vendorId: 0x0922, productId: 0x0020 }), true);
  assert.equal(DYMO.usb!.matches(none, { vendorId: 0x0922, productId: 0x002a }), true);
  assert.equal(DYMO.usb!.matches(parseDeviceId(DYMO_450_DEVICE_ID), { vendorId: 0x1234, productId: 1 }), true);
  assert.equal(DYMO.usb!.matches(parseDeviceId('MFG:DYMO;CMD: ;MDL:LabelManager PnP;'), { vendorId: 0x0922, productId: 0x1002 }), false);
  assert.equal(DYMO.usb!.matches(parseDeviceId('MFG:Zebra;CMD:ZPL;MDL:ZD420;'), { vendorId: 0x0a5f, productId: 0x0100 }), false);
});

test('media: DYMO sizes the renderer parses, address label first; 4x6 in first on a 4XL', () => {
  const media = DYMO.ipp.media(printer('DYMO LabelWriter 450'));
  assert.equal(media[0], 'oe_address-label_1.125x3.5in');
  for (const name of media) assert.ok(parseMediaSize(name), name);
  assert.equal(DYMO.ipp.media(printer('DYMO LabelWriter 4XL'))[0], 'na_index-4x6_4x6in');
});

test('the test label: raw LabelWriter raster the emulator prints as one address label with a border', async () => {
  const doc = await DYMO.testDocument(printer('DYMO LabelWriter 450'), { deviceId: 'abc123', printerPath: 'usb_x', printedAt: new Date(0) });
  assert.deepEqual([doc.format, doc.contentType], ['raw', 'raw']);
  const emulator = new DymoPrinterEmulator({ model: '450' });
  emulator.feed(doc.data);
  assert.equal(emulator.printed.length, 1);
  const [label] = emulator.printed;
  assert.deepEqual([label.bytesPerLine, label.picture.height], [43, 1050]);
  assert.equal(label.picture.data[0], 0xff, 'the top border');
});

test('the test label of a 550 is a 550 job: the 550 emulator prints it as one label of one ended job', async () => {
  const doc = await DYMO.testDocument(printer('DYMO LabelWriter 550'), { deviceId: 'abc123', printerPath: 'usb_x', printedAt: new Date(0) });
  assert.deepEqual([...doc.data.subarray(0, 2)], [0x1b, 0x73], 'ESC s first');
  const emulator = new DymoPrinterEmulator({ model: '550' });
  emulator.feed(doc.data);
  assert.deepEqual(emulator.jobs.map((j) => j.ended), [true]);
  assert.equal(emulator.printed.length, 1);
  const [label] = emulator.printed;
  assert.deepEqual([label.bytesPerLine, label.picture.height, label.labelIndex], [43, 1050, 1]);
  assert.equal(label.picture.data[0], 0xff, 'the top border');
});
