// Validation messages name the field and say what was expected.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors';
import { PrintBodySchema } from '../../src/spooler/print-request';
import { compileValidator } from '../../src/schemas/validate';

const validate = compileValidator(PrintBodySchema);

function messageOf(value: unknown): string {
  try {
    validate(value);
  } catch (err) {
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, 'INVALID_REQUEST');
    return err.message;
  }
  return 'valid';
}

test('print body messages', () => {
  assert.equal(messageOf({ content: 'x', options: { copies: 0 } }), 'options.copies must be an integer >= 1 and <= 9999');
  assert.equal(messageOf({}), 'content is required');
  assert.equal(messageOf({ content: 'x', contentType: 'pdf' }), 'contentType must be one of pdf_url, pdf_base64, raw_url, raw_base64, zpl, zpl_base64');
  assert.equal(messageOf({ content: 'x', options: { duplex: 'both' } }), 'options.duplex must be one of one-sided, long-edge, short-edge');
  assert.equal(messageOf({ content: 'x', wait: 'no' }), 'wait must be a boolean');
  assert.equal(messageOf({ content: 'x', options: { pageRange: '1-' } }), 'options.pageRange must be a string in the expected format');
  assert.equal(messageOf({ content: 'x', options: { staple: true } }), 'options.staple is not an allowed field');
  assert.equal(messageOf('text'), 'body must be an object');
  assert.equal(messageOf({ content: 'x', options: { copies: 2, pageRange: '1,3,7-9' } }), 'valid');
});
