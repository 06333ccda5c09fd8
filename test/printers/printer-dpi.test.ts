// Resolution from IEEE 1284 model strings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dpiFromModel, reportedDpi } from '../../src/kinds/usb/printer-dpi';

test('dpiFromModel reads Zebra model strings, dots per mm, and nothing else', () => {
  assert.equal(dpiFromModel('ZTC ZD421-203dpi ZPL'), 203);
  assert.equal(dpiFromModel('Zebra Technologies ZTC ZT410-300dpi ZPL'), 300);
  assert.equal(dpiFromModel('ZTC ZT610-600dpi ZPL'), 600);
  assert.equal(dpiFromModel('ZTC ZT230-200dpi ZPL'), 203, 'Zebra names its 8 dots/mm heads 200dpi');
  assert.equal(dpiFromModel('Label printer 300 DPI'), 300);
  assert.equal(dpiFromModel('ZTC 105SL-12dpmm'), 300);
  assert.equal(dpiFromModel('ZTC GK420d'), undefined);
  assert.equal(dpiFromModel('ZTC ZD421-1203dpi'), undefined, 'four digits are not a resolution');
  assert.equal(dpiFromModel('ZTC ZD421-250dpi'), undefined, 'a resolution outside 152/203/300/600');
  assert.equal(dpiFromModel(undefined), undefined);
});

test('reportedDpi trusts the model string of USB printers only', () => {
  assert.equal(reportedDpi({ connection: { type: 'usb' }, model: 'ZTC ZD421-300dpi ZPL' }), 300);
  assert.equal(reportedDpi({ connection: { type: 'network', host: 'h', port: 9100, protocol: 'tcp' }, model: 'ZTC ZD421-300dpi ZPL' }), undefined);
});
