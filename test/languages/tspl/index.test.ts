// The TSPL module's facts, and that its functions are the ones the files export (one object to wire into a table).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TSPL, TSPL_MIME_TYPE } from '../../../src/languages/tspl';
import { parseDeviceId } from '../../../src/usb/ieee1284';
import { READINESS_ERRORS } from '../../../src/languages/readiness';

test('names, formats and geometry: tspl, a vendor MIME type with octet-stream, 4x6 in at 203 dpi', () => {
  assert.equal(TSPL.name, 'tspl');
  assert.equal(TSPL.contentType, 'tspl');
  assert.equal(TSPL.passThroughMimeType, TSPL_MIME_TYPE);
  assert.deepEqual(TSPL.ownIppFormats, ['application/vnd.tsc-tspl', 'application/octet-stream']);
  assert.deepEqual(TSPL.geometry, { dpi: 203, widthIn: 4, heightIn: 6, widthDots: 812, heightDots: 1218 });
  assert.equal(TSPL.dnsSdKind, 'label');
  assert.equal(parseDeviceId(TSPL.deviceIdText).CMD, 'TSPL');
  assert.equal(TSPL.matchesDeviceId(parseDeviceId('CMD:TSPL2;')), true);
});

test('status through the module: query bytes, completeness, pre-flight and reasons of a reply', () => {
  assert.deepEqual([...TSPL.status.query], [0x1b, 0x21, 0x3f]);
  assert.equal(TSPL.status.isComplete(Uint8Array.of(4)), true);
  const outcome = TSPL.status.preflight(Uint8Array.of(0x04));
  assert.deepEqual(outcome.kind === 'not-ready' && outcome.readiness.errors, [READINESS_ERRORS.paperOut]);
  assert.deepEqual(TSPL.status.statusReasons(Uint8Array.of(0x12)), ['paused', 'media-jam-error']);
  assert.deepEqual(TSPL.status.statusReasons(new Uint8Array(0)), []);
});

test('encoders: 203 dpi by default, another resolution on request', () => {
  const page = { width: 600, height: 300, bytesPerRow: 75, data: new Uint8Array(75 * 300) };
  const at = (factory: typeof TSPL.encoder) => {
    const encoder = factory(1);
    encoder.addPage(page);
    return Buffer.from(encoder.finish()).toString('latin1').split('\r\n')[0];
  };
  assert.equal(at(TSPL.encoder), 'SIZE 2.956,1.478');
  assert.equal(at(TSPL.encoderFor(300)), 'SIZE 2,1');
});
