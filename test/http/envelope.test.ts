// The pre-serialized envelope is the same bytes as serializing the envelope object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envelope, envelopeJson } from '../../src/http/envelope';

test('envelopeJson equals JSON.stringify(envelope(...)) for successes, errors and awkward strings', () => {
  const contents: unknown[] = [[{ path: 'usb_sn_X', tags: ['a"b', 'ü\n'] }], null, { message: 'No printer at path: \\x' }, []];
  for (const [status, module, message] of [[200, '/printers', 'Successfully obtained printers.'], [503, '/print/a"b', 'Printer is not\tready'], [201, '/é\u2028', '']] as const) {
    for (const content of contents) assert.equal(envelopeJson(status, module, message, JSON.stringify(content)), JSON.stringify(envelope(status, module, message, content)));
  }
});
