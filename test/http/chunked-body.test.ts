// Unit tests of ChunkedBody: where a chunked body ends, whatever the split of its bytes, and what is not one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ChunkedFramingError } from '../../src/errors';
import { ChunkedBody } from '../../src/http/chunked-body';

const BODY = '4\r\nWiki\r\nA;name=value\r\n0123456789\r\n0\r\nX-Trailer: 1\r\n\r\n';
const NEXT = 'GET / HTTP/1.1\r\n\r\n';

test('the end of a body with an extension and a trailer, at every split into two pieces', () => {
  const bytes = Buffer.from(BODY + NEXT);
  for (let split = 0; split <= bytes.length; split += 1) {
    const body = new ChunkedBody();
    const first = body.scan(bytes.subarray(0, split));
    const end = first >= 0 ? first : split + body.scan(bytes.subarray(split));
    assert.equal(end, BODY.length, `split at ${split}`);
  }
});

test('a body scanned a byte at a time ends at its last byte; -1 before', () => {
  const body = new ChunkedBody();
  const bytes = Buffer.from('1\r\nx\r\n0\r\n\r\n');
  for (let i = 0; i < bytes.length - 1; i += 1) assert.equal(body.scan(bytes.subarray(i, i + 1)), -1);
  assert.equal(body.scan(bytes.subarray(bytes.length - 1)), 1);
});

test('what is not a chunked body throws ChunkedFramingError: no size, a non-hex size, data longer than its size, an endless size line', () => {
  for (const text of ['\r\n', 'zz\r\n', '1\r\nxy\r\n', `1;${'e'.repeat(9000)}`]) {
    assert.throws(() => new ChunkedBody().scan(Buffer.from(text)), ChunkedFramingError, JSON.stringify(text.slice(0, 20)));
  }
});

test('trailerStart: where the trailer section starts in the piece last scanned, -1 before it', () => {
  const body = new ChunkedBody();
  assert.equal(body.scan(Buffer.from('2\r\nab\r\n')), -1);
  assert.equal(body.trailerStart, -1);
  assert.equal(body.scan(Buffer.from('0\r\nX-A: 1\r\n')), -1);
  assert.equal(body.trailerStart, 3);
  assert.equal(body.scan(Buffer.from('X-B: 2\r\n\r\nnext')), 10);
  assert.equal(body.trailerStart, 0);
});
