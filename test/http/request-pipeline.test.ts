// Unit tests of RequestPipeline and AnswerTracker together: one request passed on at a time, each after the answer before it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AnswerTracker } from '../../src/http/answer-tracker';
import { RequestPipeline } from '../../src/http/request-pipeline';

function pipeline(limit = 1024) {
  const forwarded: string[] = [];
  const refused: string[] = [];
  const tracker = new AnswerTracker({ answered: () => p.answered(), tunnel: () => p.tunnel() });
  const p: RequestPipeline = new RequestPipeline(
    { forward: (b) => forwarded.push(b.toString('latin1')), sent: (m) => tracker.expect(m), refuse: (v) => refused.push(`${v.code}: ${v.reason}`), changed: () => undefined },
    limit,
  );
  return { p, tracker, forwarded, refused, sentText: () => forwarded.join('') };
}

const GET = 'GET /a HTTP/1.1\r\nHost: a\r\n\r\n';
const HEAD = 'HEAD /a HTTP/1.1\r\nHost: a\r\n\r\n';
const POST = 'POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello';
const OK = (body: string) => `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

test('three pipelined requests: the second goes only after the first answer has ended, the third after the second', () => {
  const { p, tracker, sentText } = pipeline();
  p.feed(Buffer.from(POST + HEAD + GET));
  assert.equal(sentText(), POST);
  assert.equal(p.holding(), true);
  tracker.feed(Buffer.from(OK('abc').slice(0, 20)));
  assert.equal(sentText(), POST, 'half an answer: nothing more');
  tracker.feed(Buffer.from(OK('abc').slice(20)));
  assert.equal(sentText(), POST + HEAD);
  // the answer to HEAD carries the GET's Content-Length but no body
  tracker.feed(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n'));
  assert.equal(sentText(), POST + HEAD + GET);
  assert.equal(p.holding(), false);
});

test('requests waiting for an answer are read up to the head limit, then no more bytes are wanted until it comes', () => {
  const { p, tracker, sentText } = pipeline(100);
  p.feed(Buffer.from(GET + GET));
  assert.equal(p.wantsData(), true, 'a hang-up is still seen');
  p.feed(Buffer.from(GET + GET + GET));
  assert.equal(p.wantsData(), false);
  tracker.feed(Buffer.from(OK('')));
  assert.equal(sentText(), GET + GET);
});

test('a 100 Continue is not the answer; a 101 makes the connection a tunnel (everything held goes on)', () => {
  const { p, tracker, sentText } = pipeline();
  p.feed(Buffer.from(POST + GET));
  tracker.feed(Buffer.from('HTTP/1.1 100 Continue\r\n\r\n'));
  assert.equal(sentText(), POST);
  tracker.feed(Buffer.from('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n'));
  assert.equal(sentText(), POST + GET);
  p.feed(Buffer.from('\x81\x00 frames', 'latin1'));
  assert.equal(sentText(), POST + GET + '\x81\x00 frames');
});

test('a later head that is malformed or over the limit is refused once the answers before it are out, and nothing after it goes on', () => {
  for (const [bad, code] of [['GET /a HTTP/1.1\r\nHost : a\r\n\r\n', 'INVALID_REQUEST'], [`GET /${'x'.repeat(2000)}`, 'HEADERS_TOO_LARGE']] as const) {
    const { p, tracker, refused, sentText } = pipeline();
    p.feed(Buffer.from(GET + bad));
    assert.deepEqual(refused, []);
    tracker.feed(Buffer.from(OK('')));
    assert.equal(refused.length, 1);
    assert.match(refused[0], new RegExp(`^${code}`));
    assert.equal(sentText(), GET);
    p.feed(Buffer.from(GET));
    assert.equal(sentText(), GET);
  }
});

test('a request whose framing is unknown (conflicting Content-Length) is passed on with all that follows: uWS judges it', () => {
  const { p, sentText } = pipeline();
  const bad = 'POST /p HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab';
  p.feed(Buffer.from(bad + GET));
  assert.equal(sentText(), bad + GET);
});

test('a chunked body goes on as sent, but for its trailer fields, which are dropped (at any split)', () => {
  const chunked = 'POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nX-Trailer: t\r\nX-Other: u\r\n\r\n';
  const expected = 'POST /p HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n';
  for (let split = 0; split <= chunked.length; split += 1) {
    const { p, tracker, sentText } = pipeline();
    p.feed(Buffer.from(chunked.slice(0, split)));
    p.feed(Buffer.from(chunked.slice(split) + GET));
    assert.equal(sentText(), expected, `split at ${split}`);
    tracker.feed(Buffer.from(OK('')));
    assert.equal(sentText(), expected + GET);
  }
});
