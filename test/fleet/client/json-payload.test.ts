// parseJsonObject: an MQTT payload read as a JSON object, null for anything else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonObject } from '../../../src/fleet/client/json-payload';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

test('a JSON object payload is returned as an object', () => {
  assert.deepEqual(parseJsonObject(bytes('{"status":200,"id":"é"}')), { status: 200, id: 'é' });
});

test('a payload that is not JSON, or JSON but not an object, is null', () => {
  for (const text of ['', 'not json', '{', 'null', '42', '"text"', 'true']) assert.equal(parseJsonObject(bytes(text)), null, text);
});
