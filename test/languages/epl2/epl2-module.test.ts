// The EPL2 module's own facts: label counts of EPL2 bytes, the 1284 id match, the test label on the emulator, the table members.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EPL2, EPL2_MIME_TYPE } from '../../../src/languages/epl2';
import { speaksEpl2 } from '../../../src/languages/epl2/epl2-device-id';
import { countEpl2Formats } from '../../../src/languages/epl2/epl2-formats';
import { buildEpl2TestLabel, epl2Quoted } from '../../../src/languages/epl2/epl2-test-label';
import { parseDeviceId } from '../../../src/usb/ieee1284';
import { Epl2PrinterEmulator } from '../../fixtures/epl2-printer';

const bytes = (...parts: Array<string | number[]>) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

test('countFormats counts P commands and steps over GW and GM data that looks like one', () => {
  assert.equal(countEpl2Formats(bytes('N\nA10,10,0,3,1,1,N,"P1"\nP1\n')), 1);
  assert.equal(countEpl2Formats(bytes('\r\nN\r\nP2,3\r\nN\r\nP1\r\n')), 2);
  // GW data holding "\nP1\n": 2 bytes per row x 2 rows, with the comma form and the line-end form of the header
  assert.equal(countEpl2Formats(bytes('N\nGW0,0,2,2,', [0x0a, 0x50, 0x31, 0x0a], '\nP1\n')), 1);
  assert.equal(countEpl2Formats(bytes('N\r\nGW0,0,2,2\r\n', [0x0a, 0x50, 0x31, 0x0a], '\r\nP1\r\n')), 1);
  assert.equal(countEpl2Formats(bytes('GM"LOGO"4\n', [0x0a, 0x50, 0x31, 0x0a], 'N\nP1')), 1);
  assert.equal(countEpl2Formats(bytes('N\nA10,10,0,3,1,1,N,"x"\n')), 0);
  assert.equal(EPL2.countFormats!(bytes('N\nP1\nN\nP1\n')), 2);
});

test('the 1284 id: EPL or EPL2 in CMD (COMMAND SET too) is EPL2; one that also lists ZPL is left to ZPL', () => {
  const device = { vendorId: 0x0a5f, productId: 0x000a };
  assert.equal(speaksEpl2(parseDeviceId('MANUFACTURER:Zebra Technologies;COMMAND SET:EPL;MODEL:LP 2844;')), true);
  assert.equal(EPL2.usb!.matches(parseDeviceId('MFG:Zebra;CMD:EPL2;MDL:TLP 2844;'), device), true);
  assert.equal(EPL2.usb!.matches(parseDeviceId('MFG:Zebra;CMD:ZPL,EPL2;MDL:GK420d;'), device), false);
  assert.equal(EPL2.usb!.matches(parseDeviceId('MFG:Zebra;CMD:ZPL;MDL:ZD420;'), device), false);
  assert.equal(EPL2.usb!.matches(parseDeviceId('MFG:TSC;CMD:TSPL2;MDL:TE200;'), device), false);
  assert.equal(EPL2.usb!.matches(parseDeviceId('MFG:EPSON;CMD:ESC/POS;MDL:TM-T20;'), device), false);
});

test('the test label prints on the emulator: one label with the device, printer and date, a Code 128 B command', async () => {
  const info = { deviceId: 'abc123', printerPath: 'usb/0a5f:000a "42A"', printedAt: new Date('2024-05-06T07:08:09Z') };
  const doc = await EPL2.testDocument({} as never, info);
  assert.deepEqual([doc.format, doc.contentType], ['raw', 'raw']);
  assert.equal(doc.data.toString('latin1'), buildEpl2TestLabel(info));
  const printer = new Epl2PrinterEmulator();
  assert.equal(printer.feed(doc.data).length, 0);
  assert.equal(printer.printed.length, 1);
  const [label] = printer.printed;
  assert.deepEqual([label.widthDots, label.lengthDots, label.sets, label.copies], [812, 1218, 1, 1]);
  assert.ok(label.commands.includes('A40,120,0,4,1,1,N,"Device: printproxy-abc123"'));
  assert.ok(label.commands.includes('A40,165,0,4,1,1,N,"Printer: usb/0a5f:000a \\"42A\\""'));
  assert.ok(label.commands.includes('A40,210,0,4,1,1,N,"Printed: 2024-05-06 07:08:09 UTC"'));
  assert.ok(label.commands.includes('B40,280,0,1,3,6,160,B,"usb/0a5f:000a \\"42A\\""'));
  assert.equal(countEpl2Formats(doc.data), 1);
});

test('quoted EPL2 text escapes backslashes and quotes and blanks control characters', () => {
  assert.equal(epl2Quoted('a"b\\c\r\nd'), '"a\\"b\\\\c  d"');
});

test('the module: name, content, MIME type, IPP texts and the table members', () => {
  assert.equal(EPL2.name, 'epl2');
  assert.equal(EPL2.content, 'epl2');
  assert.equal(EPL2.passThroughMimeType, EPL2_MIME_TYPE);
  assert.deepEqual([EPL2.nativeFormat, EPL2.nativeRepeatsCopies, EPL2.rawPortHostQueries, EPL2.interruptedJobs], ['raw', false, 'keep', 'resend']);
  assert.deepEqual(EPL2.transports, ['tcp', 'usb']);
  assert.equal(EPL2.ipp.commandSet, 'EPL2');
  assert.ok(EPL2.ipp.formats({} as never).includes(EPL2_MIME_TYPE));
  assert.deepEqual(EPL2.ipp.declared, { [EPL2_MIME_TYPE]: 'raw' });
  assert.deepEqual([EPL2.device!.overNetwork, EPL2.device!.hostQueries], [true, false]);
  assert.deepEqual([EPL2.displayName, EPL2.defaultDpi, EPL2.rank], ['EPL2', 203, 25]);
  assert.equal(EPL2.pages!.geometry, 'label');
});
