// ESC A replies of the 450 (one byte) and the 550 (32 bytes) decoded: paper out, jam, a non-DYMO roll named, labels left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeDymoStatus, DYMO_EXTRA_ERRORS, isDymoStatusComplete, preflightFromDymoReply, readinessFromDymoStatus, statusReasonsFromDymoStatus } from '../../../src/languages/dymo/dymo-status';
import { DymoPrinterEmulator } from '../../fixtures/dymo-printer';

const PAPER_OUT_TEXT = 'Printer is out of paper (load labels and close the head)';

test('450: ready, paper out (0xA1) and a jam (0xC1) from the one status byte', () => {
  assert.deepEqual(preflightFromDymoReply(Buffer.of(0x03)), { kind: 'ready' });
  const out = decodeDymoStatus(Buffer.of(0xa1))!;
  assert.equal(out.paperOut, true);
  assert.equal(out.otherError, false, 'bit 7 comes with paper out and is not a second error');
  assert.deepEqual(statusReasonsFromDymoStatus(out), ['media-empty-error']);
  assert.deepEqual(readinessFromDymoStatus(out).errors, [PAPER_OUT_TEXT]);
  const jam = decodeDymoStatus(Buffer.of(0xc1))!;
  assert.deepEqual(statusReasonsFromDymoStatus(jam), ['media-jam-error']);
  assert.deepEqual(decodeDymoStatus(Buffer.of(0x81))!.otherError, true);
});

test('550: labels left and SKU, a non-DYMO roll named in the error, paper out, busy is ready', () => {
  const printer = new DymoPrinterEmulator({ model: '550', labelsOnRoll: 137 });
  const ok = decodeDymoStatus(printer.statusReply())!;
  assert.deepEqual([ok.model, ok.labelsLeft, ok.sku], ['550', 137, 'S0722370']);
  assert.equal(readinessFromDymoStatus(ok).ready, true);

  printer.state.notDymoRoll = true;
  const fake = decodeDymoStatus(printer.statusReply())!;
  assert.equal(fake.notDymoRoll, true);
  const readiness = readinessFromDymoStatus(fake);
  assert.equal(readiness.ready, false);
  assert.deepEqual(readiness.errors, [DYMO_EXTRA_ERRORS.notDymoRoll]);
  assert.match(readiness.errors[0], /not a DYMO roll/);
  assert.deepEqual(statusReasonsFromDymoStatus(fake), ['media-needed-error']);

  printer.state = { ...printer.state, notDymoRoll: false, paperOut: true };
  const out = preflightFromDymoReply(printer.statusReply());
  assert.equal(out.kind, 'not-ready');
  assert.deepEqual(out.kind === 'not-ready' && out.readiness.errors, [PAPER_OUT_TEXT]);

  printer.state = { ...printer.state, paperOut: false, busy: true };
  const busy = decodeDymoStatus(printer.statusReply())!;
  assert.equal(busy.busy, true);
  assert.deepEqual(preflightFromDymoReply(printer.statusReply()), { kind: 'ready' });
});

test('a reply is whole at one byte or 32; anything between is unreadable, hence silent', () => {
  assert.equal(isDymoStatusComplete(Buffer.alloc(0)), false);
  assert.equal(isDymoStatusComplete(Buffer.alloc(1)), true);
  assert.equal(isDymoStatusComplete(Buffer.alloc(7)), false);
  assert.equal(isDymoStatusComplete(Buffer.alloc(32)), true);
  assert.equal(decodeDymoStatus(Buffer.alloc(7)), null);
  assert.deepEqual(preflightFromDymoReply(Buffer.alloc(0)), { kind: 'silent' });
});
