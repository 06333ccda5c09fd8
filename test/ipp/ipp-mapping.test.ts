// Unit tests of the IPP mapping (no printer): each print option → job attribute, dropping, job and printer states.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JOB_STATE } from '../../src/ipp/ipp-constants';
import { capabilitiesOf, jobAttributesFor, jobStateOf, liveStatusOf, type Attributes } from '../../src/ipp/ipp-mapping';
import { decodeMessage, encodeRequest, GROUP, TAG, type IppAttribute, type IppValue } from '../../src/ipp/ipp-wire';
import type { PrintOptions } from '../../src/schemas/print-options';

/** A printer that supports everything these tests ask for (the values ippeveprinter -2 reports, plus print-scaling). */
function office(overrides: Record<string, IppValue[]> = {}): Attributes {
  return new Map<string, IppValue[]>(
    Object.entries({
      'copies-supported': [{ lower: 1, upper: 999 }],
      'sides-supported': ['one-sided', 'two-sided-long-edge', 'two-sided-short-edge'],
      'print-color-mode-supported': ['monochrome', 'color', 'auto'],
      'media-supported': ['na_letter_8.5x11in', 'iso_a4_210x297mm'],
      'media-source-supported': ['auto', 'main', 'manual', 'by-pass-tray'],
      'page-ranges-supported': [true],
      'print-scaling-supported': ['auto', 'fit', 'fill', 'none'],
      'orientation-requested-supported': [3, 4, 5, 6],
      'print-quality-supported': [3, 4, 5],
      ...overrides,
    }),
  );
}

/** The job attributes for `options` as name → values (collections as their member lists), and what was dropped. */
function mapped(options: PrintOptions, printer: Attributes = office()): { job: Record<string, IppAttribute['values']>; dropped: string[] } {
  const { attributes, dropped } = jobAttributesFor(options, printer);
  return { job: Object.fromEntries(attributes.map((a) => [a.name, a.values])), dropped };
}

test('copies → copies (integer) within copies-supported; outside the bounds, or without copies-supported, dropped', () => {
  assert.deepEqual(mapped({ copies: 2 }), { job: { copies: [2] }, dropped: [] });
  assert.deepEqual(mapped({ copies: 999 }).job, { copies: [999] });
  assert.deepEqual(mapped({ copies: 1000 }), { job: {}, dropped: ['copies'] });
  assert.deepEqual(mapped({ copies: 2 }, office({ 'copies-supported': [{ lower: 1, upper: 1 }] })), { job: {}, dropped: ['copies'] });
  assert.deepEqual(mapped({ copies: 2 }, office({ 'copies-supported': [] })), { job: {}, dropped: ['copies'] });
  const { attributes } = jobAttributesFor({ copies: 3 }, office());
  assert.equal(attributes[0].tag, TAG.integer);
});

test('duplex → sides (one-sided, two-sided-long-edge, two-sided-short-edge); dropped on a one-sided printer', () => {
  assert.deepEqual(mapped({ duplex: 'one-sided' }).job, { sides: ['one-sided'] });
  assert.deepEqual(mapped({ duplex: 'long-edge' }).job, { sides: ['two-sided-long-edge'] });
  assert.deepEqual(mapped({ duplex: 'short-edge' }).job, { sides: ['two-sided-short-edge'] });
  assert.deepEqual(mapped({ duplex: 'long-edge' }, office({ 'sides-supported': ['one-sided'] })), { job: {}, dropped: ['duplex'] });
});

test('colorMode → print-color-mode: grayscale → monochrome, color, auto; color on a monochrome printer is dropped', () => {
  assert.deepEqual(mapped({ colorMode: 'grayscale' }).job, { 'print-color-mode': ['monochrome'] });
  assert.deepEqual(mapped({ colorMode: 'color' }).job, { 'print-color-mode': ['color'] });
  assert.deepEqual(mapped({ colorMode: 'auto' }).job, { 'print-color-mode': ['auto'] });
  const mono = office({ 'print-color-mode-supported': ['monochrome'] });
  assert.deepEqual(mapped({ colorMode: 'color' }, mono), { job: {}, dropped: ['colorMode'] });
  assert.deepEqual(mapped({ colorMode: 'grayscale' }, mono).job, { 'print-color-mode': ['monochrome'] });
});

test('paperSize → media (keyword) when listed in media-supported; otherwise dropped', () => {
  assert.deepEqual(mapped({ paperSize: 'iso_a4_210x297mm' }), { job: { media: ['iso_a4_210x297mm'] }, dropped: [] });
  assert.deepEqual(mapped({ paperSize: 'iso_a3_297x420mm' }), { job: {}, dropped: ['paperSize'] });
});

test('bin → media-col.media-source; with paperSize, media-col also carries media-size in hundredths of mm', () => {
  assert.deepEqual(mapped({ bin: 'manual' }).job, { 'media-col': [[{ tag: TAG.keyword, name: 'media-source', values: ['manual'] }]] });
  const both = mapped({ bin: 'by-pass-tray', paperSize: 'iso_a4_210x297mm' });
  assert.deepEqual(both.dropped, []);
  assert.equal(both.job.media, undefined, 'media and media-col are never both sent');
  assert.deepEqual(both.job['media-col'], [[
    { tag: TAG.keyword, name: 'media-source', values: ['by-pass-tray'] },
    {
      tag: TAG.begCollection,
      name: 'media-size',
      values: [[
        { tag: TAG.integer, name: 'x-dimension', values: [21000] },
        { tag: TAG.integer, name: 'y-dimension', values: [29700] },
      ]],
    },
  ]]);
});

test('an unsupported bin is dropped and paperSize still goes as media', () => {
  assert.deepEqual(mapped({ bin: 'tray-9', paperSize: 'na_letter_8.5x11in' }), { job: { media: ['na_letter_8.5x11in'] }, dropped: ['bin'] });
  assert.deepEqual(mapped({ bin: 'main' }, office({ 'media-source-supported': [] })), { job: {}, dropped: ['bin'] });
});

test('pageRange → page-ranges (1setOf rangeOfInteger) when page-ranges-supported is true', () => {
  assert.deepEqual(mapped({ pageRange: '2-5' }).job, { 'page-ranges': [{ lower: 2, upper: 5 }] });
  assert.deepEqual(mapped({ pageRange: '1,3,7-9' }).job, { 'page-ranges': [{ lower: 1, upper: 1 }, { lower: 3, upper: 3 }, { lower: 7, upper: 9 }] });
  assert.deepEqual(mapped({ pageRange: '1-2' }, office({ 'page-ranges-supported': [false] })), { job: {}, dropped: ['pageRange'] });
  assert.deepEqual(mapped({ pageRange: '1-2' }, office({ 'page-ranges-supported': [] })), { job: {}, dropped: ['pageRange'] });
});

test('page-ranges are sent sorted, with overlapping and adjacent ranges merged and reversed ends swapped', () => {
  assert.deepEqual(mapped({ pageRange: '7-9,1-3,2-5' }).job, { 'page-ranges': [{ lower: 1, upper: 5 }, { lower: 7, upper: 9 }] });
  assert.deepEqual(mapped({ pageRange: '10, 4-6, 5, 1-3' }).job, { 'page-ranges': [{ lower: 1, upper: 6 }, { lower: 10, upper: 10 }] });
  assert.deepEqual(mapped({ pageRange: '9-7,3,3' }).job, { 'page-ranges': [{ lower: 3, upper: 3 }, { lower: 7, upper: 9 }] });
  assert.deepEqual(mapped({ pageRange: '0' }), { job: {}, dropped: ['pageRange'] }, 'no page 0 in IPP');
});

test('fitToPage → print-scaling fit when print-scaling-supported lists it; otherwise dropped; false sends nothing', () => {
  assert.deepEqual(mapped({ fitToPage: true }).job, { 'print-scaling': ['fit'] });
  assert.deepEqual(mapped({ fitToPage: true }, office({ 'print-scaling-supported': ['auto', 'none'] })), { job: {}, dropped: ['fitToPage'] });
  assert.deepEqual(mapped({ fitToPage: false }), { job: {}, dropped: [] });
});

test('orientation → orientation-requested (enum 3 portrait, 4 landscape, 5 reverse-landscape, 6 reverse-portrait)', () => {
  assert.deepEqual(mapped({ orientation: 'portrait' }).job, { 'orientation-requested': [3] });
  assert.deepEqual(mapped({ orientation: 'landscape' }).job, { 'orientation-requested': [4] });
  assert.deepEqual(mapped({ orientation: 'reverse-landscape' }).job, { 'orientation-requested': [5] });
  assert.deepEqual(mapped({ orientation: 'reverse-portrait' }).job, { 'orientation-requested': [6] });
  assert.deepEqual(mapped({ orientation: 'landscape' }, office({ 'orientation-requested-supported': [3] })), { job: {}, dropped: ['orientation'] });
  assert.equal(jobAttributesFor({ orientation: 'landscape' }, office()).attributes[0].tag, TAG.enum);
});

test('quality → print-quality (enum 3 draft, 4 normal, 5 high); an unlisted value is dropped', () => {
  assert.deepEqual(mapped({ quality: 'draft' }).job, { 'print-quality': [3] });
  assert.deepEqual(mapped({ quality: 'normal' }).job, { 'print-quality': [4] });
  assert.deepEqual(mapped({ quality: 'high' }).job, { 'print-quality': [5] });
  assert.deepEqual(mapped({ quality: 'high' }, office({ 'print-quality-supported': [3, 4] })), { job: {}, dropped: ['quality'] });
});

test('a printer that supports nothing: every option is dropped silently, nothing is sent, nothing throws', () => {
  const all: PrintOptions = {
    copies: 2, duplex: 'long-edge', colorMode: 'grayscale', paperSize: 'iso_a4_210x297mm', pageRange: '1-2',
    bin: 'main', fitToPage: true, orientation: 'landscape', quality: 'high',
  };
  const { attributes, dropped } = jobAttributesFor(all, new Map());
  assert.deepEqual(attributes, []);
  assert.deepEqual(dropped.sort(), ['bin', 'colorMode', 'copies', 'duplex', 'fitToPage', 'orientation', 'pageRange', 'paperSize', 'quality']);
});

test('the mapped attributes survive the wire: 1setOf rangeOfInteger and the nested media-col collection', () => {
  const { attributes } = jobAttributesFor({ pageRange: '5-6,1-2', bin: 'main', paperSize: 'iso_a4_210x297mm', copies: 2 }, office());
  const decoded = decodeMessage(encodeRequest(0x0002, 7, [{ tag: GROUP.job, attributes }]));
  const job = decoded.groups[0].attributes;
  assert.deepEqual(job.get('copies'), [2]);
  assert.deepEqual(job.get('page-ranges'), [{ lower: 1, upper: 2 }, { lower: 5, upper: 6 }]);
  assert.deepEqual(job.get('media-col'), [{ 'media-source': ['main'], 'media-size': [{ 'x-dimension': [21000], 'y-dimension': [29700] }] }]);
});

test('job-state → job state, in one mapping: pending/pending-held queued, processing/-stopped printing, ends', () => {
  assert.deepEqual(jobStateOf(JOB_STATE.pending, ['none']), { state: 'queued', error: null });
  assert.deepEqual(jobStateOf(JOB_STATE.pendingHeld, ['job-hold-until-specified']), { state: 'queued', error: null });
  assert.deepEqual(jobStateOf(JOB_STATE.processing, ['job-printing']), { state: 'printing', error: null });
  assert.deepEqual(jobStateOf(JOB_STATE.processingStopped, ['printer-stopped']), { state: 'printing', error: null });
  assert.deepEqual(jobStateOf(JOB_STATE.completed, ['job-completed-successfully']), { state: 'completed', error: null });
  assert.deepEqual(jobStateOf(JOB_STATE.canceled, ['job-canceled-by-user']), { state: 'failed', error: 'canceled at the printer (job-canceled-by-user)' });
  assert.deepEqual(jobStateOf(JOB_STATE.aborted, ['aborted-by-system'], ' Out of toner '), { state: 'failed', error: 'aborted by the printer (aborted-by-system): Out of toner' });
  assert.deepEqual(jobStateOf(JOB_STATE.aborted, []), { state: 'failed', error: 'aborted by the printer (no reason given)' });
  assert.equal(jobStateOf(undefined, []), null);
  assert.equal(jobStateOf(2, []), null);
  assert.equal(jobStateOf('completed', []), null);
});

test('printer-state 5 (stopped) is error with its reasons; idle and processing are online; none is dropped', () => {
  const state = (s: number, reasons: string[]) => liveStatusOf(new Map<string, IppValue[]>([['printer-state', [s]], ['printer-state-reasons', reasons]]));
  assert.deepEqual(state(5, ['paused']), { status: 'error', statusReasons: ['paused'] });
  assert.deepEqual(state(5, ['none']), { status: 'error', statusReasons: [] });
  assert.deepEqual(state(3, ['none']), { status: 'online', statusReasons: [] });
  assert.deepEqual(state(4, ['toner-low-warning']), { status: 'online', statusReasons: ['toner-low-warning'] });
  assert.deepEqual(state(3, ['media-empty-report']), { status: 'error', statusReasons: ['media-empty-report'] });
  assert.deepEqual(state(4, ['other-error']), { status: 'error', statusReasons: ['other-error'] });
});

test('capabilities come from printer attributes; copies-supported becomes [min, max]', () => {
  const caps = capabilitiesOf(office({ 'printer-make-and-model': ['Example Office 2000'], 'color-supported': [false], 'document-format-supported': ['application/pdf'] }));
  assert.equal(caps.makeAndModel, 'Example Office 2000');
  assert.deepEqual(caps.copiesSupported, [1, 999]);
  assert.deepEqual(caps.sidesSupported, ['one-sided', 'two-sided-long-edge', 'two-sided-short-edge']);
  assert.equal(caps.colorSupported, false);
});
