// Unit tests of the IPP decoder on malformed bytes: every failure is an IppDecodeError, nesting and value counts bounded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IppDecodeError } from '../../src/errors';
import { decodeMessage, decodeRequest, encodeRequest, GROUP, MAX_COLLECTION_DEPTH, MAX_REQUEST_VALUES, TAG } from '../../src/ipp/ipp-wire';

const HEADER = Buffer.from([0x02, 0x00, 0x00, 0x0b, 0x00, 0x00, 0x00, 0x01]);

/** One encoded value: tag, name, value bytes (RFC 8010 section 3.1.4). */
function value(tag: number, name: string, bytes: Buffer = Buffer.alloc(0)): Buffer {
  const n = Buffer.from(name, 'utf8');
  const out = Buffer.alloc(5 + n.length + bytes.length);
  out[0] = tag;
  out.writeUInt16BE(n.length, 1);
  n.copy(out, 3);
  out.writeUInt16BE(bytes.length, 3 + n.length);
  bytes.copy(out, 5 + n.length);
  return out;
}

/** A request of the operation group holding `body` (already encoded values), then the end tag. */
function request(...body: Buffer[]): Buffer {
  return Buffer.concat([HEADER, Buffer.from([GROUP.operation]), value(TAG.charset, 'attributes-charset', Buffer.from('utf-8')), ...body, Buffer.from([GROUP.end])]);
}

/** `depth` collections, each the only member `m` of the one around it. */
function nested(depth: number): Buffer {
  const parts: Buffer[] = [value(TAG.begCollection, 'media-col')];
  for (let i = 1; i < depth; i += 1) parts.push(value(TAG.memberAttrName, '', Buffer.from('m')), value(TAG.begCollection, ''));
  for (let i = 0; i < depth; i += 1) parts.push(value(TAG.endCollection, ''));
  return Buffer.concat(parts);
}

function withLanguage(lang: string, text: string, declaredText = Buffer.byteLength(text)): Buffer {
  const l = Buffer.from(lang);
  const t = Buffer.from(text);
  const out = Buffer.alloc(4 + l.length + t.length);
  out.writeUInt16BE(l.length, 0);
  l.copy(out, 2);
  out.writeUInt16BE(declaredText, 2 + l.length);
  t.copy(out, 4 + l.length);
  return out;
}

test('100,000 nested collections: an IppDecodeError naming the depth, not a stack overflow', () => {
  for (const decode of [decodeRequest, decodeMessage]) {
    assert.throws(() => decode(request(nested(100_000))), (err: unknown) => err instanceof IppDecodeError && /nest more than/.test(err.message));
  }
});

test(`collections nested ${MAX_COLLECTION_DEPTH} deep decode`, () => {
  const decoded = decodeRequest(request(nested(MAX_COLLECTION_DEPTH)));
  assert.equal(decoded.groups[0].attributes[1].name, 'media-col');
  assert.throws(() => decodeRequest(request(nested(MAX_COLLECTION_DEPTH + 1))), IppDecodeError);
});

test('a textWithLanguage whose lengths overrun or fall short of its value: an IppDecodeError', () => {
  const bad = [
    Buffer.from([0x00, 0x40, 0x65, 0x6e]),
    Buffer.from([0x00]),
    withLanguage('en', 'hello', 200),
    withLanguage('en', 'hello', 2),
  ];
  for (const bytes of bad) {
    for (const decode of [decodeRequest, decodeMessage]) {
      assert.throws(() => decode(request(value(TAG.textWithLanguage, 'job-name', bytes))), IppDecodeError, bytes.toString('hex'));
    }
  }
  const good = decodeRequest(request(value(TAG.nameWithLanguage, 'job-name', withLanguage('en', 'Label 1'))));
  assert.deepEqual(good.groups[0].attributes[1].values, ['Label 1']);
});

test(`a request of more than ${MAX_REQUEST_VALUES} values: an IppDecodeError; a printer's answer is not counted`, () => {
  const many = Array.from({ length: MAX_REQUEST_VALUES }, () => value(TAG.keyword, '', Buffer.from('x')));
  const bytes = request(value(TAG.keyword, 'requested-attributes', Buffer.from('all')), ...many);
  assert.throws(() => decodeRequest(bytes), (err: unknown) => err instanceof IppDecodeError && /more than/.test(err.message));
  assert.equal(decodeMessage(bytes).groups[0].attributes.get('requested-attributes')?.length, MAX_REQUEST_VALUES + 1);
});

test('bytes that end inside a value, or a value outside a group: IppDecodeError, never another error', () => {
  const valid = encodeRequest(0x000b, 1, [{ tag: GROUP.operation, attributes: [{ tag: TAG.charset, name: 'attributes-charset', values: ['utf-8'] }] }]);
  for (let end = 9; end < valid.length - 1; end += 1) {
    assert.throws(() => decodeRequest(valid.subarray(0, end)), IppDecodeError, `cut at ${end}`);
  }
  assert.throws(() => decodeRequest(Buffer.concat([HEADER, value(TAG.keyword, 'a', Buffer.from('b')), Buffer.from([GROUP.end])])), IppDecodeError);
});
