// The TSPL module's facts, and the TSPL functions it is made of, imported from their own files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TSPL, TSPL_MIME_TYPE } from '../../../src/languages/tspl';
import { speaksTspl } from '../../../src/languages/tspl/tspl-device-id';
import { tsplEncoderWith, tsplLabelEncoder } from '../../../src/languages/tspl/tspl-encoder';
import { decodeTsplStatus, isTsplStatusComplete, preflightFromTsplReply, statusReasonsFromTsplStatus, TSPL_STATUS_QUERY } from '../../../src/languages/tspl/tspl-status';
import { parseDeviceId } from '../../../src/usb/ieee1284';
import { READINESS_ERRORS } from '../../../src/languages/readiness';

test('names, formats and table facts: tspl, a vendor MIME type with octet-stream, 203 dpi, a label kind, after ZPL', () => {
  assert.equal(TSPL.name, 'tspl');
  assert.equal(TSPL.content, 'tspl');
  assert.equal(TSPL.displayName, 'TSPL');
  assert.equal(TSPL.defaultDpi, 203);
  assert.equal(TSPL.passThroughMimeType, TSPL_MIME_TYPE);
  assert.equal(TSPL.ipp.dnsSdKind, 'label');
  assert.equal(TSPL.usb?.matches(parseDeviceId('CMD:TSPL2;'), { vendorId: 0, productId: 0 }), true);
  assert.equal(speaksTspl(parseDeviceId('MFG:Generic;MDL:TSPL Label Printer;CMD:TSPL;CLS:PRINTER;')), true);
});

test('status: query bytes, completeness, pre-flight and reasons of a reply', () => {
  assert.deepEqual([...TSPL_STATUS_QUERY], [0x1b, 0x21, 0x3f]);
  assert.equal(isTsplStatusComplete(Uint8Array.of(4)), true);
  const outcome = preflightFromTsplReply(Uint8Array.of(0x04));
  assert.deepEqual(outcome.kind === 'not-ready' && outcome.readiness.errors, [READINESS_ERRORS.paperOut]);
  assert.deepEqual(statusReasonsFromTsplStatus(decodeTsplStatus(0x12)), ['paused', 'media-jam-error']);
});

test('encoders: 203 dpi by default, another resolution on request, and the module renders through them', () => {
  const page = { width: 600, height: 300, bytesPerRow: 75, data: new Uint8Array(75 * 300) };
  const at = (factory: typeof tsplLabelEncoder) => {
    const encoder = factory(1);
    encoder.addPage(page);
    return Buffer.from(encoder.finish()).toString('latin1').split('\r\n')[0];
  };
  assert.equal(at(tsplLabelEncoder), 'SIZE 2.956,1.478');
  assert.equal(at(tsplEncoderWith({ dpi: 300 })), 'SIZE 2,1');
  assert.equal(at(TSPL.pages!.encoderFor(300)), 'SIZE 2,1');
});
