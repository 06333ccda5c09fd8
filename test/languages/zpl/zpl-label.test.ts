// ZPL label encoder: one ^XA^PW^LL^LH^FO^GFA(Z64)^FS^PQ^XZ label per page; decoded back identically.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { zplLabelEncoder } from '../../../src/languages/zpl/zpl-label';
import { decodeLabels } from '../../render/zpl-label-decode';
import { noiseBitmap } from '../../encoders/encoder-fixtures';

test('each page becomes one label of its size with ^PQ copies, and its dots come back identical', () => {
  const pages = [noiseBitmap(812, 1218, 1), noiseBitmap(203, 101, 2)];
  const encoder = zplLabelEncoder(4);
  for (const page of pages) encoder.addPage(page);
  const zpl = new TextDecoder().decode(encoder.finish());
  assert.match(zpl, /^\^XA\^PW812\^LL1218\^LH0,0\^FO0,0\^GFA,[^^]+\^FS\^PQ4\^XZ\n\^XA\^PW203\^LL101\^LH0,0\^FO0,0\^GFA,[^^]+\^FS\^PQ4\^XZ\n$/);
  const labels = decodeLabels(zpl);
  assert.deepEqual(labels.map((l) => [l.pw, l.ll, l.pq]), [[812, 1218, 4], [203, 101, 4]]);
  labels.forEach((label, i) => {
    assert.equal(label.bitmap.bytesPerRow, pages[i].bytesPerRow);
    assert.deepEqual(label.bitmap.data, pages[i].data);
  });
});

test('a page may be reused by the caller once addPage returns', () => {
  const page = noiseBitmap(64, 8, 3);
  const before = page.data.slice();
  const encoder = zplLabelEncoder(1);
  encoder.addPage(page);
  page.data.fill(0);
  assert.deepEqual(decodeLabels(new TextDecoder().decode(encoder.finish()))[0].bitmap.data, before);
});
