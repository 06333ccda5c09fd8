// The TSPL test label: a whole label the emulator prints, naming the device and printer, with a Code 128 and a QR code.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildTsplTestLabel, tsplQuoted } from '../../../src/languages/tspl/tspl-test-label';
import type { TcpTransport } from '../../../src/transports/tcp-transport';
import { TsplPrinterEmulator } from '../../fixtures/tspl-printer';
import { tsplOverTcp } from './tspl-over-tcp';
import { readLabelBarcodes } from '../../render/barcode-reader';

const printer = new TsplPrinterEmulator();
let transport: TcpTransport;

tsplOverTcp(printer, (t) => { transport = t; });

const info = { deviceId: 'AB12CD34', printerPath: 'tcp://10.0.0.5:9100', printedAt: new Date('2026-11-26T18:00:00Z') };

test('the test label prints as one 4x6 label with its identity, a Code 128 of the printer path and a QR code', async () => {
  const text = buildTsplTestLabel(info);
  assert.ok(text.split('\n').slice(0, -1).every((line) => line.endsWith('\r')), 'every line ends in CRLF');
  await transport.send(Buffer.from(text, 'latin1'));
  await printer.waitForLabels(1, 10_000);
  const [label] = printer.printed;
  assert.equal(label.size, '4,6');
  assert.equal(label.widthDots, 812);
  assert.equal(label.heightDots, 1218);
  assert.equal(label.sets * label.copies, 1);
  const commands = label.commands.join('\n');
  assert.match(commands, /TEXT 40,\d+,"4",0,2,2,"printproxyd test label"/);
  assert.match(commands, /"Device: printproxy-AB12CD34"/);
  assert.match(commands, /"Printer: tcp:\/\/10\.0\.0\.5:9100"/);
  assert.match(commands, /"Printed: 2026-11-26 18:00:00 UTC"/);
  assert.match(commands, /^BARCODE \d+,\d+,"128",\d+,1,0,\d+,\d+,"tcp:\/\/10\.0\.0\.5:9100"$/m);
  assert.match(commands, /^QRCODE \d+,\d+,[LMQH],\d+,A,0,"printproxy-AB12CD34 tcp:\/\/10\.0\.0\.5:9100"$/m);
  assert.match(commands, /^BOX 0,0,811,1217,4$/m);
});

test('values cannot break out of their quotes or their line', () => {
  assert.equal(tsplQuoted('a"b\r\nPRINT 9'), `"a'b  PRINT 9"`);
  const text = buildTsplTestLabel({ ...info, printerPath: 'usb://x"\r\nPRINT 99' });
  assert.equal(text.split('\r\n').filter((l) => l.startsWith('PRINT')).length, 1);
  assert.doesNotMatch(text, /"usb:\/\/x"/);
});

test('the test label\'s Code 128 and QR code, drawn by the emulator from the TSPL commands, read back with zxing', async () => {
  const [label] = printer.printed;
  const found = await readLabelBarcodes(label.picture, label.picture.width);
  const texts = found.map((r) => `${r.format}:${r.text}`);
  assert.ok(texts.includes('Code128:tcp://10.0.0.5:9100'), `found ${texts.join(', ')}`);
  assert.ok(texts.includes('QRCode:printproxy-AB12CD34 tcp://10.0.0.5:9100'), `found ${texts.join(', ')}`);
});
