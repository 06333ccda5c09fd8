// A large JSON string member taken out as bytes, and base64 decoded from bytes: the same answers as JSON.parse and Node's decoder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { splitStringField } from '../../src/http/json-string-field';
import { decodeBase64Bytes } from '../../src/http/base64-bytes';
import { decodeBase64 } from '../../src/http/print-request';

test('the content member is split out at the top level only, and the rest parses to the same object without it', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', 'Z', '9', '+', '/', '=', ' ') }), fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }), (content, others) => {
      const object = { ...others, nested: { content: 'not me' }, content };
      const split = splitStringField(Buffer.from(JSON.stringify(object)), 'content');
      assert.ok(split);
      assert.equal(split.value.toString(), content);
      assert.deepEqual(JSON.parse(split.rest.toString()), JSON.parse(JSON.stringify({ ...object, content: '' })));
    }),
    { seed: 42, numRuns: 200 },
  );
});

test('a member with escapes or control characters, or a value that is no string, is left to JSON.parse', () => {
  assert.equal(splitStringField(Buffer.from('{"content":"a\\"b"}'), 'content'), null);
  assert.equal(splitStringField(Buffer.from('{"content":"a\nb"}'), 'content'), null);
  assert.equal(splitStringField(Buffer.from('{"content":42}'), 'content'), null);
  assert.equal(splitStringField(Buffer.from('{"title":"\\"content\\":\\"x\\""}'), 'content'), null);
  assert.equal(splitStringField(Buffer.from('{"a":{"content":"x"}}'), 'content'), null);
});

test('base64 from bytes decodes what the string decoder decodes, and refuses what it refuses', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), fc.boolean(), (bytes, urlSafe, spaced) => {
      let text = Buffer.from(bytes).toString(urlSafe ? 'base64url' : 'base64');
      if (spaced) text = text.replace(/(.{7})/g, '$1\n');
      const fromBytes = decodeBase64Bytes(Buffer.from(text));
      if (bytes.length === 0) return assert.equal(fromBytes, null);
      assert.deepEqual(fromBytes, Buffer.from(bytes));
      assert.deepEqual(fromBytes, decodeBase64(text));
    }),
    { seed: 7, numRuns: 300 },
  );
  for (const bad of ['', 'A', 'AB=C', 'ABC!', 'AB===', '====']) {
    assert.equal(decodeBase64Bytes(Buffer.from(bad)), null, bad);
    assert.throws(() => decodeBase64(bad), /not valid base64/, bad);
  }
});
