// `^ee` replies decoded: every code of the table, several codes, garbled and unfinished replies, flow-control bytes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { READINESS_ERRORS } from '../../../src/languages/readiness';
import {
  EPL2_ERROR_CODES, EPL2_ERRORS, EPL2_STATUS_QUERY, isEpl2StatusComplete, parseEpl2Status, preflightFromEpl2Reply, readinessFromEpl2Codes, statusReasonsFromEpl2Codes,
} from '../../../src/languages/epl2/epl2-status';

const reply = (text: string) => Buffer.from(text, 'latin1');

test('the query is ^ee and a line end; a reply is whole at its line feed', () => {
  assert.deepEqual(EPL2_STATUS_QUERY, Buffer.from('^ee\r\n'));
  assert.equal(isEpl2StatusComplete(reply('07')), false);
  assert.equal(isEpl2StatusComplete(reply('07\r')), false);
  assert.equal(isEpl2StatusComplete(reply('07\r\n')), true);
});

test('replies parse to their codes; the last whole well-formed line counts; garbled or unfinished is null', () => {
  assert.deepEqual(parseEpl2Status(reply('00\r\n')), [0]);
  assert.deepEqual(parseEpl2Status(reply('07,11\r\n')), [7, 11]);
  assert.deepEqual(parseEpl2Status(reply('00\r\n07\r\n')), [7]);
  assert.deepEqual(parseEpl2Status(reply('\x1307\r\n')), [7], 'XOFF before the code is dropped');
  assert.deepEqual(parseEpl2Status(reply('00\n')), [0], 'a bare line feed ends a line too');
  assert.equal(parseEpl2Status(reply('07')), null);
  assert.equal(parseEpl2Status(reply('OK\r\n')), null);
  assert.equal(parseEpl2Status(reply('7\r\n')), null);
  assert.equal(parseEpl2Status(reply('')), null);
});

test('00 and every data error of a past command are ready, with no reasons', () => {
  for (const code of [0, 1, 2, 3, 4, 5, 6, 8, 9, 10]) {
    assert.equal(EPL2_ERROR_CODES[code].blocks, false);
    assert.deepEqual(readinessFromEpl2Codes([code]), { ready: true, paperOut: false, paused: false, headOpen: false, ribbonOut: false, errors: [] }, `code ${code}`);
    assert.deepEqual(statusReasonsFromEpl2Codes([code]), [], `code ${code}`);
  }
});

test('07 is out of labels or ribbon (media-empty-error), 11 the head open (cover-open-error), 81 the cutter (other-error)', () => {
  assert.deepEqual(readinessFromEpl2Codes([7]), { ready: false, paperOut: true, paused: false, headOpen: false, ribbonOut: false, errors: [EPL2_ERRORS.paperOrRibbonOut] });
  assert.deepEqual(statusReasonsFromEpl2Codes([7]), ['media-empty-error']);
  assert.deepEqual(readinessFromEpl2Codes([11]), { ready: false, paperOut: false, paused: false, headOpen: true, ribbonOut: false, errors: [READINESS_ERRORS.headOpen] });
  assert.deepEqual(statusReasonsFromEpl2Codes([11]), ['cover-open-error']);
  assert.deepEqual(readinessFromEpl2Codes([81]).errors, [EPL2_ERRORS.cutterJam]);
  assert.deepEqual(statusReasonsFromEpl2Codes([81]), ['other-error']);
});

test('several codes add up; a code outside the table is an error of its own; repeated codes count once', () => {
  const r = readinessFromEpl2Codes([7, 11, 1, 93, 7]);
  assert.equal(r.ready, false);
  assert.deepEqual(r.errors, [EPL2_ERRORS.paperOrRibbonOut, READINESS_ERRORS.headOpen, 'Printer reports EPL2 error 93']);
  assert.deepEqual(statusReasonsFromEpl2Codes([7, 11, 93]), ['media-empty-error', 'cover-open-error', 'other-error']);
});

test('pre-flight from a reply: ready, not ready with its readiness, silent when nothing well-formed came', () => {
  assert.deepEqual(preflightFromEpl2Reply(reply('00\r\n')), { kind: 'ready' });
  assert.deepEqual(preflightFromEpl2Reply(reply('01\r\n')), { kind: 'ready' });
  const outcome = preflightFromEpl2Reply(reply('07\r\n'));
  assert.equal(outcome.kind, 'not-ready');
  assert.deepEqual(outcome.kind === 'not-ready' && outcome.readiness.errors, [EPL2_ERRORS.paperOrRibbonOut]);
  assert.deepEqual(preflightFromEpl2Reply(reply('')), { kind: 'silent' });
  assert.deepEqual(preflightFromEpl2Reply(reply('garbage\r\n')), { kind: 'silent' });
});
