// Validation messages name the field and say what was expected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AppError } from '../../src/errors';
import { PrintBodySchema } from '../../src/http/print-request';
import { compileValidator } from '../../src/schemas/validate';
import { PatchPrinterBodySchema } from '../../src/schemas/printer';
import { SettingsPutBodySchema, StoredSettingsSchema } from '../../src/schemas/settings';

const validate = compileValidator(PrintBodySchema);

function messageOf(value: unknown): string {
  try {
    validate(value);
  } catch (err) {
    assert.ok(err instanceof AppError);
    assert.equal(err.code, 'INVALID_REQUEST');
    return err.message;
  }
  return 'valid';
}

test('print body messages', () => {
  assert.equal(messageOf({ content: 'x', options: { copies: 0 } }), 'options.copies must be an integer >= 1 and <= 9999');
  assert.equal(messageOf({}), 'content is required');
  assert.equal(messageOf({ content: 'x', contentType: 'pdf' }), 'contentType must be one of pdf_url, pdf_base64, raw_url, raw_base64, zpl, zpl_base64, image_url, image_base64');
  assert.equal(messageOf({ content: 'x', options: { duplex: 'both' } }), 'options.duplex must be one of one-sided, long-edge, short-edge');
  assert.equal(messageOf({ content: 'x', wait: 'no' }), 'wait must be a boolean');
  assert.equal(messageOf({ content: 'x', options: { pageRange: '1-' } }), 'options.pageRange must be a string in the expected format');
  assert.equal(messageOf({ content: 'x', options: { staple: true } }), 'options.staple is not an allowed field');
  assert.equal(messageOf('text'), 'body must be an object');
  assert.equal(messageOf({ content: 'x', options: { copies: 2, pageRange: '1,3,7-9' } }), 'valid');
});

/** The message `validator` gives `value`, or 'valid'. */
function messageFor(validator: (value: unknown) => unknown, value: unknown): string {
  try {
    validator(value);
  } catch (err) {
    assert.ok(err instanceof AppError);
    return err.message;
  }
  return 'valid';
}

test('options.dither is an optional boolean', () => {
  assert.equal(messageOf({ content: 'x', options: { dither: true } }), 'valid');
  assert.equal(messageOf({ content: 'x', options: { dither: 'yes' } }), 'options.dither must be a boolean');
});

test('printer patch: dpi is one of 152, 203, 300, 600 or null; dither a boolean or null', () => {
  const patch = compileValidator(PatchPrinterBodySchema);
  for (const dpi of [152, 203, 300, 600, null]) assert.equal(messageFor(patch, { dpi }), 'valid');
  for (const dpi of [200, 0, '203', 203.5]) assert.equal(messageFor(patch, { dpi }), 'dpi must be one of 152, 203, 300, 600 or null');
  assert.equal(messageFor(patch, { dither: false }), 'valid');
  assert.equal(messageFor(patch, { dither: null }), 'valid');
  assert.equal(messageFor(patch, { dither: 1 }), 'dither must be a boolean or null');
});

test('settings put: renderWorkers is an integer 1..16 or null; a stored file with one is valid, and without one too', () => {
  const put = compileValidator(SettingsPutBodySchema);
  for (const renderWorkers of [1, 16, null]) assert.equal(messageFor(put, { renderWorkers }), 'valid');
  for (const renderWorkers of [0, 17, 1.5, '2']) assert.equal(messageFor(put, { renderWorkers }), 'renderWorkers must be an integer >= 1 and <= 16 or null');
  const stored = compileValidator(StoredSettingsSchema);
  const file = { version: 1, deviceId: 'ab12', apiKey: 'k'.repeat(16), alias: '', subDomain: '', allowedOrigins: ['*'], maxBodyBytes: 1024, printers: [], printerOverrides: {}, shares: [], extensions: [] };
  assert.equal(messageFor(stored, file), 'valid', 'files written before the setting existed still load');
  assert.equal(messageFor(stored, { ...file, renderWorkers: 4, printers: [{ path: 'tcp_h_9100', connection: { type: 'network' }, content: 'zpl', tags: [], dpi: 300, dither: true }] }), 'valid');
  assert.equal(messageFor(stored, { ...file, renderWorkers: null }), 'renderWorkers must be an integer >= 1 and <= 16', 'null is never stored');
});

test('a validator compiles its schema at its first use, not when made (start-up compiles none)', () => {
  // TypeCompiler refuses a schema of unknown kind: made without throwing means nothing was compiled yet
  const unknownKind = { [Symbol.for('TypeBox.Kind')]: 'NoSuchKind' } as unknown as typeof PrintBodySchema;
  const lazy = compileValidator(unknownKind);
  assert.throws(() => lazy({}), /NoSuchKind|Unknown/i);
});
