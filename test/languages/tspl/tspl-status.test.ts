// <ESC>!? status: each bit of the byte decoded, readiness and IPP reasons from it, and pre-flight over TCP with the emulator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeTsplStatus, isTsplStatusComplete, preflightFromTsplReply, readinessFromTsplStatus, statusReasonsFromTsplStatus,
  TSPL_EXTRA_ERRORS, TSPL_RESET_COMMAND, TSPL_STATUS_QUERY,
} from '../../../src/languages/tspl/tspl-status';
import type { TcpTransport } from '../../../src/transports/tcp-transport';
import { READINESS_ERRORS } from '../../../src/languages/readiness';
import { TsplPrinterEmulator } from '../../fixtures/tspl-printer';
import { tsplOverTcp } from './tspl-over-tcp';

test('the query is <ESC>!? and the reset <ESC>!R', () => {
  assert.deepEqual([...TSPL_STATUS_QUERY], [0x1b, 0x21, 0x3f]);
  assert.deepEqual([...TSPL_RESET_COMMAND], [0x1b, 0x21, 0x52]);
});

test('0x00 is ready with no errors and no reasons', () => {
  const s = decodeTsplStatus(0x00);
  assert.deepEqual(readinessFromTsplStatus(s), { ready: true, paperOut: false, paused: false, headOpen: false, ribbonOut: false, errors: [] });
  assert.deepEqual(statusReasonsFromTsplStatus(s), []);
});

const BITS: Array<{ byte: number; flag: string; errors: string[]; reasons: string[] }> = [
  { byte: 0x01, flag: 'headOpen', errors: [READINESS_ERRORS.headOpen], reasons: ['cover-open-error'] },
  { byte: 0x02, flag: 'paperJam', errors: [TSPL_EXTRA_ERRORS.paperJam], reasons: ['media-jam-error'] },
  { byte: 0x04, flag: 'paperOut', errors: [READINESS_ERRORS.paperOut], reasons: ['media-empty-error'] },
  { byte: 0x08, flag: 'ribbonOut', errors: [READINESS_ERRORS.ribbonOut], reasons: ['marker-supply-empty-error'] },
  { byte: 0x10, flag: 'paused', errors: [READINESS_ERRORS.paused], reasons: ['paused'] },
  { byte: 0x20, flag: 'printing', errors: [], reasons: [] },
  { byte: 0x40, flag: 'coverOpen', errors: [TSPL_EXTRA_ERRORS.coverOpen], reasons: ['cover-open-error'] },
  { byte: 0x80, flag: 'overTemperature', errors: [TSPL_EXTRA_ERRORS.overTemperature], reasons: ['other-error'] },
];

for (const { byte, flag, errors, reasons } of BITS) {
  test(`bit 0x${byte.toString(16).padStart(2, '0')} is ${flag}: only that flag, its message and its IPP reason`, () => {
    const s = decodeTsplStatus(byte);
    for (const [name, on] of Object.entries(s)) if (name !== 'byte') assert.equal(on, name === flag, `${name} for 0x${byte.toString(16)}`);
    const r = readinessFromTsplStatus(s);
    assert.deepEqual(r.errors, errors);
    assert.equal(r.ready, errors.length === 0);
    for (const key of ['paperOut', 'paused', 'headOpen', 'ribbonOut'] as const) assert.equal(r[key], key === flag);
    assert.deepEqual(statusReasonsFromTsplStatus(s), reasons);
  });
}

test('combined bits give every message in the decisions.md order, and the byte is kept', () => {
  const s = decodeTsplStatus(0x0d);
  assert.equal(s.byte, 0x0d);
  const r = readinessFromTsplStatus(s);
  assert.deepEqual(r.errors, [READINESS_ERRORS.paperOut, READINESS_ERRORS.headOpen, READINESS_ERRORS.ribbonOut]);
  assert.equal(r.ready, false);
  assert.deepEqual(statusReasonsFromTsplStatus(s), ['media-empty-error', 'cover-open-error', 'marker-supply-empty-error']);
  assert.deepEqual(statusReasonsFromTsplStatus(decodeTsplStatus(0x41)), ['cover-open-error']);
});

test('pre-flight: an empty reply is silent, a ready byte ready, an error byte not ready with its readiness', () => {
  assert.equal(isTsplStatusComplete(new Uint8Array(0)), false);
  assert.equal(isTsplStatusComplete(Uint8Array.of(0)), true);
  assert.deepEqual(preflightFromTsplReply(new Uint8Array(0)), { kind: 'silent' });
  assert.deepEqual(preflightFromTsplReply(Uint8Array.of(0x20)), { kind: 'ready' });
  const outcome = preflightFromTsplReply(Uint8Array.of(0x00, 0x04));
  assert.equal(outcome.kind, 'not-ready');
  assert.deepEqual(outcome.kind === 'not-ready' && outcome.readiness.errors, [READINESS_ERRORS.paperOut]);
});

const printer = new TsplPrinterEmulator();
let transport: TcpTransport;

tsplOverTcp(printer, (t) => { transport = t; });

test('over TCP the emulator answers <ESC>!? with its state, and pre-flight reads it', async () => {
  const ask = () => transport.query(TSPL_STATUS_QUERY, isTsplStatusComplete, 5000);
  printer.state.paperOut = true;
  printer.state.headOpen = true;
  const reply = await ask();
  assert.deepEqual(reply && [...reply], [0x05]);
  const outcome = preflightFromTsplReply(reply!);
  assert.deepEqual(outcome.kind === 'not-ready' && outcome.readiness.errors, [READINESS_ERRORS.paperOut, READINESS_ERRORS.headOpen]);
  printer.state.paperOut = false;
  printer.state.headOpen = false;
  assert.deepEqual(preflightFromTsplReply((await ask())!), { kind: 'ready' });
});

test('a silent printer gives no reply (null, silent pre-flight); after <ESC>!R a silentUntilReset one answers', async () => {
  printer.silent = true;
  const asked = printer.statusAsked;
  assert.equal(await transport.query(TSPL_STATUS_QUERY, isTsplStatusComplete, 300), null);
  assert.equal(printer.statusAsked, asked + 1);
  printer.silent = false;
  printer.silentUntilReset = true;
  assert.equal(await transport.query(TSPL_STATUS_QUERY, isTsplStatusComplete, 300), null);
  const reply = await transport.query(Buffer.concat([TSPL_RESET_COMMAND, TSPL_STATUS_QUERY]), isTsplStatusComplete, 5000);
  assert.deepEqual(reply && [...reply], [0x00]);
  printer.silentUntilReset = false;
});

test('every one of the 256 bytes: ready exactly when no bit but "printing" is set, one message per other bit', () => {
  for (let byte = 0; byte < 256; byte += 1) {
    const r = readinessFromTsplStatus(decodeTsplStatus(byte));
    assert.equal(r.ready, (byte & ~0x20) === 0, `byte 0x${byte.toString(16)}`);
    const others = [...(byte & ~0x20).toString(2)].filter((c) => c === '1').length;
    assert.equal(r.errors.length, others, `byte 0x${byte.toString(16)}`);
    assert.equal(statusReasonsFromTsplStatus(decodeTsplStatus(byte)).length > 0, !r.ready);
  }
});
