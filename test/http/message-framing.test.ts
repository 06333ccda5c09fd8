// Unit tests of message framing: how a request's or an answer's body is delimited, from its head.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answerFraming, methodOf, requestFraming } from '../../src/http/message-framing';

const head = (...fields: string[]) => ['POST /p HTTP/1.1', 'Host: a', ...fields, '', ''].join('\r\n');

test('a request: Content-Length (repeated equal), chunked, none; conflicting or malformed fields are unknown', () => {
  assert.deepEqual(requestFraming(head('Content-Length: 12')), { kind: 'length', bytes: 12 });
  assert.deepEqual(requestFraming(head('content-length: 3', 'Content-Length: 3')), { kind: 'length', bytes: 3 });
  assert.deepEqual(requestFraming(head()), { kind: 'length', bytes: 0 });
  assert.deepEqual(requestFraming(head('Transfer-Encoding: gzip, Chunked')), { kind: 'chunked' });
  for (const fields of [['Content-Length: 3', 'Content-Length: 4'], ['Content-Length: 2, 2'], ['Content-Length: 1e3'], ['Content-Length: 2', 'Transfer-Encoding: chunked'], ['Transfer-Encoding: chunked, gzip']]) {
    assert.deepEqual(requestFraming(head(...fields)), { kind: 'unknown' }, fields.join(' | '));
  }
  assert.equal(methodOf(head()), 'POST');
});

test('an answer: no body to HEAD, for 204 and 304; 1xx interim, 101 a tunnel; else Content-Length, or none', () => {
  const answer = (status: string, ...fields: string[]) => [`HTTP/1.1 ${status}`, ...fields, '', ''].join('\r\n');
  assert.deepEqual(answerFraming(answer('200 OK', 'Content-Length: 5'), 'HEAD'), { kind: 'length', bytes: 0 });
  assert.deepEqual(answerFraming(answer('200 OK', 'Content-Length: 5'), 'GET'), { kind: 'length', bytes: 5 });
  assert.deepEqual(answerFraming(answer('304 Not Modified', 'Content-Length: 5'), 'GET'), { kind: 'length', bytes: 0 });
  assert.deepEqual(answerFraming(answer('204 No Content'), 'OPTIONS'), { kind: 'length', bytes: 0 });
  assert.deepEqual(answerFraming(answer('100 Continue'), 'POST'), { kind: 'interim' });
  assert.deepEqual(answerFraming(answer('101 Switching Protocols', 'Upgrade: websocket'), 'GET'), { kind: 'tunnel' });
  assert.deepEqual(answerFraming(answer('200 OK', 'Transfer-Encoding: chunked'), 'GET'), { kind: 'chunked' });
  assert.deepEqual(answerFraming(answer('200 OK'), 'GET'), { kind: 'length', bytes: 0 });
});
