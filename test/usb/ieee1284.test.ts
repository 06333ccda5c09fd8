// IEEE 1284 device IDs: both length orders, blank and garbage replies, and what the ID says about the printer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { DeviceIdError } from '../../src/errors';
import { contentOf, deviceIdText, modelOf, parseDeviceId } from '../../src/usb/ieee1284';
import { portStatusToLive } from '../../src/usb/printer-class';
import { deviceIdReply } from '../fixtures/fake-usb';

const NO_IDS = { vendorId: 0, productId: 0 };

test('big-endian and little-endian lengths give the same ID; values are trimmed; long keys fold', () => {
  const text = 'MANUFACTURER: Zebra Technologies ;COMMAND SET:ZPL;MODEL:ZD421;';
  for (const reply of [deviceIdReply(text), deviceIdReply(text, true)]) {
    const id = parseDeviceId(deviceIdText(reply));
    assert.deepEqual(id, { MFG: 'Zebra Technologies', CMD: 'ZPL', MDL: 'ZD421' });
    assert.equal(contentOf(id, NO_IDS), 'zpl');
    assert.equal(modelOf(id, 'x'), 'Zebra Technologies ZD421');
  }
});

test('command sets map to contents: ZPL labels, ESC/POS and Star receipts, PDF passed through', () => {
  assert.equal(contentOf(parseDeviceId('MFG:Zebra;CMD:EPL,ZPL2;'), NO_IDS), 'zpl');
  assert.equal(contentOf(parseDeviceId('MFG:Zebra Technologies;COMMAND SET:ZPL;MDL:ZD421;'), NO_IDS), 'zpl');
  assert.equal(contentOf(parseDeviceId('MFG:EPSON;CMD:ESCPOS;MDL:TM-T20;'), NO_IDS), 'raw');
  assert.equal(contentOf(parseDeviceId('MFG:EPSON;CMD:ESC/POS;MDL:TM-T88V;'), NO_IDS), 'raw');
  assert.equal(contentOf(parseDeviceId('MFG:Star;CMD:STAR;'), NO_IDS), 'raw');
  assert.equal(contentOf(parseDeviceId('MFG:Star;CMD:STARPRNT;'), NO_IDS), 'raw');
  assert.equal(contentOf(parseDeviceId('MFG:HP;CMD:PCL,PJL,PDF,URF;'), NO_IDS), 'pdf', 'a laser that takes PDF gets it as it is');
  assert.equal(contentOf({}, NO_IDS), 'raw', 'no command set: a receipt printer, as cheap ones are');
  assert.equal(contentOf(parseDeviceId('MFG:Acme;CMD:XYZ;'), NO_IDS), 'raw');
});

test('lasers and inkjets without PDF are not receipt printers: not offered', () => {
  for (const id of [
    'MFG:HP;CMD:PCL,PJL,POSTSCRIPT;MDL:LaserJet 4050;',
    'MFG:Brother;CMD:PJL,PCL,PCLXL;MDL:HL-L2350DW;',
    'MFG:HP;CMD:PCL3GUI,PJL,URF;MDL:DeskJet 2700;',
    'MFG:Canon;CMD:BJL,BJRaster3,BSCCe,IVEC,URF;MDL:G3010;',
    'MFG:EPSON;CMD:ESCPL2,BDC,D4,D4PX,ESCPR7;MDL:ET-2750;',
    'MFG:EPSON;CMD:ESC/P,BDC;MDL:LX-350;',
    'MFG:Samsung;CMD:SPL,PCL5E,PCLXL;MDL:ML-2160;',
  ]) {
    assert.equal(contentOf(parseDeviceId(id), NO_IDS), null, id);
  }
  assert.equal(contentOf(parseDeviceId('MFG:EPSON;CMD:ESC/POS,PJL;'), NO_IDS), 'raw', 'ESC/POS wins over a page language');
});

test('blank and garbage replies', () => {
  assert.deepEqual(parseDeviceId(deviceIdText(Buffer.from([0x00, 0x02]))), {});
  assert.deepEqual(parseDeviceId(deviceIdText(Buffer.from([0xff, 0xff, 0x41, 0x42]))), {});
  assert.throws(() => deviceIdText(Buffer.from([0x01])), DeviceIdError);
  assert.equal(modelOf({}, 'EPSON TM-T88V'), 'EPSON TM-T88V');
});

test('property: any bytes either parse or raise DeviceIdError', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      try {
        const id = parseDeviceId(deviceIdText(bytes));
        return typeof id === 'object' && Object.values(id).every((v) => v === v.trim());
      } catch (err) {
        return err instanceof DeviceIdError;
      }
    }),
  );
});

test('port status bits map to decisions.md reasons', () => {
  assert.deepEqual(portStatusToLive(0x18), { status: 'online', statusReasons: [] });
  assert.deepEqual(portStatusToLive(0x38), { status: 'error', statusReasons: ['media-empty-error'] });
  assert.deepEqual(portStatusToLive(0x08), { status: 'error', statusReasons: ['offline-report'] });
  assert.deepEqual(portStatusToLive(0x10), { status: 'error', statusReasons: ['other-error'] });
});
