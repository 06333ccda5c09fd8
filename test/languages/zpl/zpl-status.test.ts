// ~HS and ~HQES parsers: examples, round trips from random flag sets, and random or truncated input.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isHostQueryComplete, isHostStatusComplete, parseHostQueryStatus, parseHostStatus } from '../../../src/languages/zpl/zpl-status';
import { ZplParseError } from '../../../src/errors';
import { readinessFromHostQuery, readinessFromHostStatus } from '../../../src/languages/zpl/zpl-readiness';
import { statusReasonsFromReadiness } from '../../../src/languages/readiness';

interface Flags {
  paperOut: boolean;
  paused: boolean;
  headOpen: boolean;
  ribbonOut: boolean;
  bufferFull: boolean;
  labelLength: number;
  labelsRemaining: number;
}

const b = (v: boolean) => (v ? '1' : '0');

function hsReply(f: Flags, noise = ''): string {
  return (
    `${noise}\x02030,${b(f.paperOut)},${b(f.paused)},${String(f.labelLength).padStart(4, '0')},000,${b(f.bufferFull)},0,0,000,0,0,0\x03\r\n` +
    `\x02001,0,${b(f.headOpen)},${b(f.ribbonOut)},1,2,6,0,${String(f.labelsRemaining).padStart(8, '0')},1,000\x03\r\n` +
    `\x021234,0\x03\r\n`
  );
}

function hqReply(bits: number): string {
  return `\x02\r\n\r\n  PRINTER STATUS\r\n    ERRORS:         ${bits ? 1 : 0} 00000000 ${bits.toString(16).toUpperCase().padStart(8, '0')}\r\n    WARNINGS:       0 00000000 00000000\r\n\x03\r\n`;
}

const flagsArb = fc.record({
  paperOut: fc.boolean(),
  paused: fc.boolean(),
  headOpen: fc.boolean(),
  ribbonOut: fc.boolean(),
  bufferFull: fc.boolean(),
  labelLength: fc.integer({ min: 0, max: 9999 }),
  labelsRemaining: fc.integer({ min: 0, max: 99_999_999 }),
});

/** Runs `fn` and checks that it either returns or throws a ZplParseError, nothing else. */
function onlyTypedErrors(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch (err) {
    return err instanceof ZplParseError;
  }
}

test('a ~HS reply from the manual layout decodes to its flags and readiness', () => {
  const hs = parseHostStatus(hsReply({ paperOut: true, paused: false, headOpen: true, ribbonOut: false, bufferFull: false, labelLength: 1218, labelsRemaining: 3 }));
  assert.equal(hs.paperOut, true);
  assert.equal(hs.paused, false);
  assert.equal(hs.headOpen, true);
  assert.equal(hs.labelLength, 1218);
  assert.equal(hs.labelsRemaining, 3);
  const r = readinessFromHostStatus(hs);
  assert.equal(r.ready, false);
  assert.deepEqual(r.errors, ['Printer is out of paper (load labels and close the head)', 'Print head is open (close the print head)']);
  assert.deepEqual(statusReasonsFromReadiness(r), ['media-empty-error', 'cover-open-error']);
});

test('property: random flag sets round-trip through the reply, with leading noise', () => {
  fc.assert(
    fc.property(flagsArb, fc.string({ maxLength: 8 }).map((s) => s.replace(/[\x02\x03]/g, '')), (flags, noise) => {
      const reply = hsReply(flags, noise);
      assert.equal(isHostStatusComplete(Buffer.from(reply, 'latin1')), true);
      const hs = parseHostStatus(reply);
      assert.deepEqual(
        { paperOut: hs.paperOut, paused: hs.paused, headOpen: hs.headOpen, ribbonOut: hs.ribbonOut, bufferFull: hs.bufferFull, labelLength: hs.labelLength, labelsRemaining: hs.labelsRemaining },
        { ...flags },
      );
      const r = readinessFromHostStatus(hs);
      assert.equal(r.ready, !(flags.paperOut || flags.paused || flags.headOpen || flags.ribbonOut));
      assert.equal(r.errors.length, [flags.paperOut, flags.paused, flags.headOpen, flags.ribbonOut].filter(Boolean).length);
    }),
  );
});

test('property: every truncation of a valid ~HS reply parses or throws ZplParseError, and is incomplete', () => {
  fc.assert(
    fc.property(flagsArb, fc.nat(), (flags, cut) => {
      const reply = Buffer.from(hsReply(flags), 'latin1');
      // cut anywhere before the closing ETX of the third frame
      const at = cut % (reply.lastIndexOf(0x03) + 1);
      const part = reply.subarray(0, at);
      assert.equal(isHostStatusComplete(part), false);
      return onlyTypedErrors(() => parseHostStatus(part));
    }),
  );
});

test('property: random bytes and strings only ever raise ZplParseError', () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => onlyTypedErrors(() => parseHostStatus(bytes)) && onlyTypedErrors(() => parseHostQueryStatus(bytes))));
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.constant('\x02'), fc.constant('\x03'), fc.constant(','), fc.constant('1'), fc.constant('0'), fc.string({ maxLength: 5 })), { maxLength: 60 }), (parts) => {
      const text = parts.join('');
      return onlyTypedErrors(() => parseHostStatus(text)) && onlyTypedErrors(() => parseHostQueryStatus(text));
    }),
  );
});

test('~HQES: error bits decode to media, ribbon and head; others become one extra condition', () => {
  const hq = parseHostQueryStatus(hqReply(0x5));
  assert.deepEqual([hq.hasErrors, hq.mediaOut, hq.ribbonOut, hq.headOpen], [true, true, false, true]);
  assert.deepEqual(readinessFromHostQuery(hq).errors, ['Printer is out of paper (load labels and close the head)', 'Print head is open (close the print head)']);
  const cutter = readinessFromHostQuery(parseHostQueryStatus(hqReply(0x8)));
  assert.equal(cutter.ready, false);
  assert.match(cutter.errors[0], /error flags 0x00000008/);
  assert.equal(readinessFromHostQuery(parseHostQueryStatus(hqReply(0))).ready, true);
});

test('property: ~HQES round-trips random error bits, and truncations are typed failures', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 0xffff }), fc.nat(), (bits, cut) => {
      const reply = hqReply(bits);
      assert.equal(isHostQueryComplete(Buffer.from(reply, 'latin1')), true);
      const hq = parseHostQueryStatus(reply);
      assert.equal(hq.errorBits, bits);
      assert.equal(hq.mediaOut, (bits & 1) === 1);
      const part = reply.slice(0, cut % reply.length);
      return onlyTypedErrors(() => parseHostQueryStatus(part));
    }),
  );
});

test('malformed fields are named in the error', () => {
  assert.throws(() => parseHostStatus('\x02030,2,0,1218,000,0,0,0,000,0,0,0\x03\x02001,0,0,0,1,2,6,0,00000000,1,000\x03'), /field b is "2"/);
  assert.throws(() => parseHostStatus('\x02030,0,0\x03\x02x\x03'), /string 1 has 3 fields/);
});
