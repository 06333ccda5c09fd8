// The first-head judge of the Http1Front: what passes unchanged, what is rewritten, what is refused and why.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ERROR_STATUS } from '../../src/http/error-status';
import { headEnd, judgeHead, MAX_FIELDS } from '../../src/http/request-head';
import { addressBytes, proxyV2Header } from '../../src/http/proxy-header';

const judge = (text: string) => judgeHead(Buffer.from(text, 'latin1'));
const passed = (text: string): string => {
  const verdict = judge(text);
  assert.ok('pass' in verdict, JSON.stringify(verdict));
  return verdict.pass.toString('latin1');
};
/** A refused head's HTTP status (through the one code-to-status mapping) and reason. */
const refused = (text: string): { status: number; reason: string } => {
  const verdict = judge(text);
  assert.ok('code' in verdict, `passed: ${JSON.stringify(text)}`);
  return { status: ERROR_STATUS[verdict.code].status, reason: verdict.reason };
};

test('headEnd finds the empty line after CRLF or bare LF lines, and -1 while the head is incomplete', () => {
  assert.equal(headEnd(Buffer.from('GET / HTTP/1.1\r\nHost: a\r\n\r\nBODY')), 27);
  assert.equal(headEnd(Buffer.from('GET / HTTP/1.1\nHost: a\n\nBODY')), 24);
  assert.equal(headEnd(Buffer.from('GET / HTTP/1.1\r\nHost: a\r\n')), -1);
});

test('an HTTP/1.1 head in origin form passes byte for byte', () => {
  const head = 'POST /api/v1/print?x=1 HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nX-Odd:  spaced value \r\n\r\n';
  assert.equal(passed(head), head);
  assert.equal(passed('OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n'), 'OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n');
});

test('HTTP/1.0 becomes HTTP/1.1 with Connection: close (its own Connection dropped) and a Host when it had none', () => {
  assert.equal(passed('GET /x HTTP/1.0\r\nConnection: keep-alive\r\nAccept: */*\r\n\r\n'), 'GET /x HTTP/1.1\r\nAccept: */*\r\nHost: localhost\r\nConnection: close\r\n\r\n');
  assert.equal(passed('GET /x HTTP/1.0\r\nHost: printer\r\n\r\n'), 'GET /x HTTP/1.1\r\nHost: printer\r\nConnection: close\r\n\r\n');
});

test('absolute-form loses its scheme and authority (RFC 9112 section 3.2.2: a server accepts it)', () => {
  assert.equal(passed('GET http://a:8080/api/v1/status?q=1 HTTP/1.1\r\nHost: a\r\n\r\n'), 'GET /api/v1/status?q=1 HTTP/1.1\r\nHost: a\r\n\r\n');
  assert.equal(passed('GET http://a HTTP/1.1\r\nHost: a\r\n\r\n'), 'GET / HTTP/1.1\r\nHost: a\r\n\r\n');
});

test('refused with 400, each naming its fault: NUL, bare LF, obs-fold, space before the colon, no colon, a bad request line, authority form', () => {
  assert.match(refused('GET /a\0b HTTP/1.1\r\nHost: a\r\n\r\n').reason, /NUL/);
  assert.match(refused('GET / HTTP/1.1\nHost: a\n\n').reason, /bare LF/);
  assert.match(refused('GET / HTTP/1.1\r\nHost: a\nX: b\r\n\r\n').reason, /bare LF/);
  assert.match(refused('GET / HTTP/1.1\r\nHost: a\r\n X-Folded: b\r\n\r\n').reason, /obs-fold/);
  assert.match(refused('GET / HTTP/1.1\r\nHost : a\r\n\r\n').reason, /no space before the colon/);
  assert.match(refused('GET / HTTP/1.1\r\nJustText\r\n\r\n').reason, /not a header field/);
  assert.match(refused('GET  / HTTP/1.1\r\nHost: a\r\n\r\n').reason, /request line/);
  assert.match(refused('CONNECT a:443 HTTP/1.1\r\nHost: a\r\n\r\n').reason, /neither a path nor an absolute URL/);
  for (const head of ['GET /a\0b HTTP/1.1\r\n\r\n', 'GET / HTTP/1.1\r\nHost : a\r\n\r\n']) assert.equal(refused(head).status, 400);
});

test('a control byte in a field value is 400 (HTAB is allowed); more than MAX_FIELDS fields is 431', () => {
  assert.match(refused('GET / HTTP/1.1\r\nHost: a\r\nContent-Type: \x01\x02\r\n\r\n').reason, /value of header field Content-Type holds a control byte/);
  assert.equal(passed('GET / HTTP/1.1\r\nHost: a\r\nX: a\tb\r\n\r\n'), 'GET / HTTP/1.1\r\nHost: a\r\nX: a\tb\r\n\r\n');
  const fields = (n: number) => Array.from({ length: n }, (_, i) => `X-${i}: v\r\n`).join('');
  assert.ok('pass' in judge(`GET / HTTP/1.1\r\n${fields(MAX_FIELDS)}\r\n`));
  const many = refused(`GET / HTTP/1.1\r\n${fields(MAX_FIELDS + 1)}\r\n`);
  assert.equal(many.status, 431);
  assert.match(many.reason, new RegExp(`${MAX_FIELDS + 1} header fields`));
});

test('a major version other than 1 is 505', () => {
  const verdict = refused('GET / HTTP/2.0\r\nHost: a\r\n\r\n');
  assert.equal(verdict.status, 505);
  assert.match(verdict.reason, /HTTP\/2\.0 is not supported/);
});

test('PROXY v2 header: signature, PROXY command, TCP4 or TCP6 with both addresses and ports; LOCAL when an address is unknown', () => {
  const v4 = proxyV2Header({ address: '192.168.1.77', port: 5555 }, { address: '10.0.0.1', port: 80 });
  assert.equal(v4.subarray(0, 12).toString('hex'), '0d0a0d0a000d0a515549540a');
  assert.deepEqual([...v4.subarray(12, 16)], [0x21, 0x11, 0, 12]);
  assert.deepEqual([...v4.subarray(16)], [192, 168, 1, 77, 10, 0, 0, 1, 0x15, 0xb3, 0, 80]);
  const v6 = proxyV2Header({ address: '::ffff:127.0.0.1', port: 1 }, { address: 'fe80::1', port: 2 });
  assert.deepEqual([...v6.subarray(12, 16)], [0x21, 0x21, 0, 36]);
  assert.equal(v6.subarray(16, 32).toString('hex'), '00000000000000000000ffff7f000001');
  assert.equal(v6.subarray(32, 48).toString('hex'), 'fe800000000000000000000000000001');
  assert.deepEqual([...proxyV2Header({}, { address: '10.0.0.1', port: 80 }).subarray(12)], [0x20, 0, 0, 0]);
});

test('addressBytes reads compressed IPv6, zone ids and embedded IPv4, and refuses what is no address', () => {
  assert.equal(addressBytes('::1')!.toString('hex'), '00000000000000000000000000000001');
  assert.equal(addressBytes('2001:db8::8:800:200c:417a')!.toString('hex'), '20010db80000000000080800200c417a');
  assert.equal(addressBytes('fe80::1%eth0')!.toString('hex'), 'fe800000000000000000000000000001');
  assert.equal(addressBytes('::')!.toString('hex'), '0'.repeat(32));
  assert.equal(addressBytes('10.1.2.3')!.toString('hex'), '0a010203');
  assert.equal(addressBytes('not-an-address'), null);
  assert.equal(addressBytes(undefined), null);
});
