// Counting formats in ZPL and unprinted formats in a ~HS reply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countFormats, unprintedFormats } from '../../../src/languages/zpl/zpl-formats';
import { parseHostStatus } from '../../../src/languages/zpl/zpl-status';

test('countFormats counts ^XA in any case, and none in host commands alone', () => {
  assert.equal(countFormats(Buffer.from('^XA^FDa^FS^XZ^xa^FDb^FS^xz')), 2);
  assert.equal(countFormats(Buffer.from('~HS~JA')), 0);
});

test('unprintedFormats adds the printing batch and a partly received format to the formats in the buffer', () => {
  const hs = (eee: string, h: string, u: string) => parseHostStatus(`\x02030,0,0,1218,${eee},0,0,${h},000,0,0,0\x03\r\n\x02001,0,0,0,1,2,6,0,${u},1,000\x03\r\n\x021234,0\x03\r\n`);
  assert.equal(unprintedFormats(hs('000', '0', '00000000')), 0);
  assert.equal(unprintedFormats(hs('002', '0', '00000000')), 2);
  assert.equal(unprintedFormats(hs('002', '0', '00000003')), 3);
  assert.equal(unprintedFormats(hs('000', '1', '00000000')), 1);
});
