// CUPS's quirks table as data: lookups as CUPS's find_quirks does them, and the flags acted on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CUPS_USB_QUIRKS } from '../../src/usb/cups-usb-quirks';
import { isBlacklisted, quirksOf, reattachesKernelDriver, readEndpoint, usesVendorClass } from '../../src/usb/usb-quirks';
import type { UsbInterfaceInfo } from '../../src/usb/usb-backend';

const BIDI: UsbInterfaceInfo = {
  number: 0,
  alternate: 0,
  interfaceClass: 7,
  interfaceSubclass: 1,
  interfaceProtocol: 2,
  endpoints: [
    { address: 0x01, direction: 'out', transferType: 'bulk', maxPacketSize: 64 },
    { address: 0x82, direction: 'in', transferType: 'bulk', maxPacketSize: 64 },
  ],
};

test('the whole CUPS table is there, one line per device', () => {
  assert.equal(CUPS_USB_QUIRKS.length, 106);
  const keys = CUPS_USB_QUIRKS.map(([v, p]) => `${v}:${p}`);
  assert.equal(new Set(keys).size, keys.length);
});

test('a vendor-and-product line wins over the vendor-wide one; a vendor line covers the rest of its products', () => {
  assert.deepEqual([...quirksOf(0x04e8, 0x330f)], ['unidir'], 'Samsung ML-2160: its own line, not all-Samsung soft-reset');
  assert.deepEqual([...quirksOf(0x04e8, 0x1234)], ['soft-reset']);
  assert.deepEqual([...quirksOf(0x0a5f, 0x0166)].sort(), ['no-reattach', 'unidir'], 'every Zebra');
  assert.deepEqual([...quirksOf(0x1234, 0x5678)], []);
});

test('unidir: no reading (but a Zebra is asked ~HS all the same); no-reattach: usblp stays off; blacklist and vendor-class by device', () => {
  assert.equal(readEndpoint(0x0a5f, BIDI, 0x0166)?.address, 0x82, 'Zebra: CUPS says unidir, a Zebra answers ~HS on bulk IN');
  assert.equal(readEndpoint(0x2730, BIDI, 0x2008), null, 'Citizen CT-S4000');
  assert.equal(readEndpoint(0x04b8, BIDI, 0x0e28)?.address, 0x82);
  assert.equal(reattachesKernelDriver(0x0924, true, 0x3ce9), false, 'Xerox Phaser 3124');
  assert.equal(reattachesKernelDriver(0x04b8, true, 0x0e28), true);
  assert.equal(reattachesKernelDriver(0x04b8, false, 0x0e28), false, 'only a driver we detached goes back');
  assert.equal(isBlacklisted(0x04a9, 0x3255), true);
  assert.equal(isBlacklisted(0x04a9, 0x1746), false);
  assert.equal(usesVendorClass(0x04b8, 0x0202), true);
  assert.equal(usesVendorClass(0x04b8, 0x0e28), false);
});
