// Recognising TSPL in raw bytes by its first command, and not ZPL, ESC/POS, PDF or text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { looksLikeTspl } from '../../../src/languages/tspl/tspl-sniff';
import { buildTsplTestLabel } from '../../../src/languages/tspl/tspl-test-label';
import { tsplLabelEncoder } from '../../../src/languages/tspl/tspl-encoder';

const bytes = (text: string) => Buffer.from(text, 'latin1');

test('TSPL jobs are recognised: the test label, an encoded page, lower case, leading blank lines', () => {
  assert.equal(looksLikeTspl(bytes(buildTsplTestLabel({ deviceId: 'X', printerPath: 'p', printedAt: new Date(0) }))), true);
  const encoder = tsplLabelEncoder(1);
  encoder.addPage({ width: 8, height: 1, bytesPerRow: 1, data: Uint8Array.of(0) });
  assert.equal(looksLikeTspl(encoder.finish()), true);
  assert.equal(looksLikeTspl(bytes('\r\n\r\nsize 50 mm,30 mm\r\ncls\r\nprint 1\r\n')), true);
  assert.equal(looksLikeTspl(bytes('CLS\r\nTEXT 1,1,"3",0,1,1,"x"\r\nPRINT 1\r\n')), true);
});

test('other printer languages and documents are not TSPL', () => {
  assert.equal(looksLikeTspl(bytes('^XA^FO50,50^FDhello^FS^XZ')), false);
  assert.equal(looksLikeTspl(Uint8Array.of(0x1b, 0x40, 0x1b, 0x21, 0x3f, 0x41)), false, 'ESC/POS (ESC @, ESC ! n)');
  assert.equal(looksLikeTspl(bytes('%PDF-1.7\n')), false);
  assert.equal(looksLikeTspl(bytes('SIZEABLE text document\n')), false);
  assert.equal(looksLikeTspl(new Uint8Array(0)), false);
});
