// Media names: PWG self-describing names, bare inch and millimetre sizes, and what is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMediaSize } from '../../src/util/media-size';

function closeTo(actual: { widthPt: number; heightPt: number } | null, widthPt: number, heightPt: number): void {
  assert.ok(actual, 'expected a size');
  assert.ok(Math.abs(actual.widthPt - widthPt) < 0.01 && Math.abs(actual.heightPt - heightPt) < 0.01, JSON.stringify(actual));
}

test('PWG names give their size', () => {
  closeTo(parseMediaSize('na_index-4x6_4x6in'), 288, 432);
  closeTo(parseMediaSize('iso_a6_105x148mm'), 297.64, 419.53);
  closeTo(parseMediaSize('oe_2x1-label_2x1in'), 144, 72);
  closeTo(parseMediaSize('custom_w4h3_4x3in'), 288, 216);
  closeTo(parseMediaSize('na_letter_8.5x11in'), 612, 792);
});

test('bare sizes default to inches and accept in / mm suffixes, any case and spacing', () => {
  closeTo(parseMediaSize('4x6'), 288, 432);
  closeTo(parseMediaSize('2x1'), 144, 72);
  closeTo(parseMediaSize('4x6in'), 288, 432);
  closeTo(parseMediaSize(' 4X6IN '), 288, 432);
  closeTo(parseMediaSize('100x150mm'), 283.46, 425.2);
  closeTo(parseMediaSize('2.25 x 1.25 in'), 162, 90);
});

test('unknown names, zero and absurd sizes are refused', () => {
  for (const name of ['', 'letter', 'A6', '4x', 'x6', '0x6', '4x0mm', '4x6cm', '-4x6', '300x2in', 'iso_a6', 'na_index_4x6']) {
    assert.equal(parseMediaSize(name), null, name);
  }
});
