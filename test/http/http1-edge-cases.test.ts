// HTTP/1.1 edge cases over a raw socket (RFC 9112): HEAD, pipelining, conflicting Content-Length, and what uWS 20.57, the one
// parser on the device, does below our code. Decided (issue 35): a request pipelined behind an unanswered one may close the
// connection, HTTP/1.0 is answered 505; neither ever hangs.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Route } from '../../src/http/route';
import { startHttpServer, TEST_KEY, type FixtureServer } from './http-server-fixture';
import { header, rawExchange } from './raw-http';
import net from 'node:net';
import { until } from '../helpers/until';
import type { RawOutcome } from './raw-http';

let printed = 0;
let hungUp = 0;
let waiting = 0;
let server: FixtureServer;

const routes: Route[] = [
  { method: 'get', path: '/status', summary: 'status', tag: 't', handler: () => ({ message: 'Status', content: { up: true } }) },
  {
    method: 'get',
    path: '/slow',
    summary: 'an answer that waits',
    tag: 't',
    handler: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { message: 'Slow', content: null };
    },
  },
  {
    method: 'post',
    path: '/print',
    summary: 'a side effect',
    tag: 't',
    handler: async (req) => {
      printed += 1;
      await new Promise((resolve) => setImmediate(resolve));
      return { message: 'Printed successfully.', content: { body: req.body } };
    },
  },
  {
    method: 'get',
    path: '/wait',
    summary: 'an answer that waits until the client hangs up',
    tag: 't',
    handler: async (req) => {
      waiting += 1;
      await new Promise((resolve) => req.signal.addEventListener('abort', resolve));
      hungUp += 1;
      return { message: 'Never read', content: null };
    },
  },
  {
    method: 'post',
    path: '/print/{target}',
    summary: 'a side effect on a named target',
    tag: 't',
    handler: () => {
      printed += 1;
      return { message: 'Printed successfully.', content: null };
    },
  },
];

before(async () => {
  server = await startHttpServer({ routes });
});

after(() => server.stop());

const KEY = `X-API-Key: ${TEST_KEY}\r\n`;
const GET_STATUS = `GET /api/v1/status HTTP/1.1\r\nHost: a\r\n${KEY}\r\n`;
const print = (extra = '', body = '{}') => `POST /api/v1/print HTTP/1.1\r\nHost: a\r\n${KEY}Content-Type: application/json\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`;

test('HEAD on an API route: the status and headers of GET, Content-Length of its body, no body; the connection goes on', async () => {
  const get = (await rawExchange(server.port, GET_STATUS, { answers: 1 })).responses[0];
  const outcome = await rawExchange(server.port, `HEAD /api/v1/status HTTP/1.1\r\nHost: a\r\n${KEY}\r\n${GET_STATUS}`, { answers: 2, bodiless: [0] });
  const [head, next] = outcome.responses;
  assert.equal(head.status, 200);
  assert.equal(header(head, 'content-type'), 'application/json');
  assert.equal(header(head, 'content-length'), String(get.body.length));
  assert.equal(next.status, 200, 'the answer after HEAD starts where HEAD ended: HEAD sent no body');
  assert.equal(next.body, get.body);
  assert.equal(outcome.rest, '');
});

test('HEAD on an unknown API path or without a key: the 404 or 401 status and headers, no body', async () => {
  for (const [path, key, status] of [['/api/v1/nothing', KEY, 404], ['/api/v1/status', '', 401]] as const) {
    const outcome = await rawExchange(server.port, `HEAD ${path} HTTP/1.1\r\nHost: a\r\n${key}\r\n${GET_STATUS}`, { answers: 2, bodiless: [0] });
    assert.equal(outcome.responses[0].status, status);
    assert.ok(Number(header(outcome.responses[0], 'content-length')) > 0);
    assert.equal(outcome.responses[1].status, 200);
  }
});

test('pipelined GETs with synchronous answers: each answered, in order, on the same connection', async () => {
  const outcome = await rawExchange(server.port, GET_STATUS + `GET /api/v1/nothing HTTP/1.1\r\nHost: a\r\n${KEY}\r\n` + GET_STATUS, { answers: 3 });
  assert.deepEqual(outcome.responses.map((r) => r.status), [200, 404, 200]);
  assert.equal(outcome.closed, false);
});

/**
 * A pipeline uWS may cut short: the connection closed (never held open), and the answers that came are the first of
 * `expected`, in order.
 */
function answeredInOrderOrClosed(outcome: RawOutcome, expected: number[], what: string): void {
  const got = outcome.responses.map((r) => r.status);
  assert.deepEqual(got, expected.slice(0, got.length), what);
  assert.ok(got.length === expected.length || outcome.closed, `${what}: ${got.length} of ${expected.length} answers and the connection still open`);
}

test('a POST with its body and a GET pipelined behind it in the same packet: answered in order, or the connection closes; never a hang', async () => {
  const before = printed;
  const outcome = await rawExchange(server.port, print() + GET_STATUS, { answers: 2 });
  answeredInOrderOrClosed(outcome, [200, 200], 'POST then GET');
  assert.ok(printed <= before + 1, 'the POST ran at most once');
});

test('a GET whose answer is asynchronous, with a request pipelined behind it: answered in order, or the connection closes', async () => {
  const outcome = await rawExchange(server.port, `GET /api/v1/slow HTTP/1.1\r\nHost: a\r\n${KEY}\r\n` + GET_STATUS, { answers: 2 });
  answeredInOrderOrClosed(outcome, [200, 200], 'slow GET then GET');
});

test('pipelined requests of every framing in one write (chunked POST, HEAD, POST, unknown path, GET): in order or closed, each POST run at most once', async () => {
  const before = printed;
  const chunked = `POST /api/v1/print HTTP/1.1\r\nHost: a\r\n${KEY}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{\r\n1\r\n}\r\n0\r\n\r\n`;
  const head = `HEAD /api/v1/status HTTP/1.1\r\nHost: a\r\n${KEY}\r\n`;
  const unknown = `GET /api/v1/nothing HTTP/1.1\r\nHost: a\r\n${KEY}\r\n`;
  const outcome = await rawExchange(server.port, chunked + head + print('', '{"n":2}') + unknown + GET_STATUS, { answers: 5, bodiless: [1] });
  answeredInOrderOrClosed(outcome, [200, 200, 200, 404, 200], 'every framing');
  assert.ok(printed <= before + 2);
});

test('a chunked POST with trailer fields, then a GET: uWS reads no trailer, so it answers 505 and closes; never a hang', async () => {
  const chunked = `POST /api/v1/print HTTP/1.1\r\nHost: a\r\n${KEY}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\nX-Trailer: t\r\n\r\n`;
  const outcome = await rawExchange(server.port, chunked + GET_STATUS, { answers: 2 });
  assert.equal(outcome.responses.at(-1)?.status, 505);
  assert.equal(outcome.closed, true);
});

test('pipelined requests sent a byte at a time: answered in order, or the connection closes', async () => {
  const outcome = await rawExchange(server.port, print('', '{"a":1}') + GET_STATUS, { answers: 2, pieceBytes: 1 });
  answeredInOrderOrClosed(outcome, [200, 200], 'a byte at a time');
});

test('a malformed head pipelined behind a good request: 400 with Connection: close (uWS may drop the good one\'s answer), never a hang', async () => {
  const outcome = await rawExchange(server.port, GET_STATUS + `GET /api/v1/status HTTP/1.1\r\nHost : a\r\n${KEY}\r\n`, { answers: 2, close: true });
  const statuses = outcome.responses.map((r) => r.status);
  assert.equal(statuses.at(-1), 400);
  assert.ok(statuses.length <= 2 && statuses.slice(0, -1).every((s) => s === 200), JSON.stringify(statuses));
  assert.equal(header(outcome.responses.at(-1)!, 'connection'), 'close');
  assert.equal(outcome.closed, true);
});

test('a client that hangs up while its answer is pending: the handler sees the abort', async () => {
  const before = hungUp;
  const started = waiting;
  const socket = net.connect(server.port, '127.0.0.1');
  socket.on('error', () => undefined);
  socket.write(`GET /api/v1/wait HTTP/1.1\r\nHost: a\r\n${KEY}\r\n`);
  await until('the request reached its handler', () => waiting === started + 1);
  socket.end();
  await until('the handler saw the abort', () => hungUp === before + 1);
  socket.destroy();
});

test('Content-Length fields that disagree: 400 with Connection: close, and the handler never runs', async () => {
  const before = printed;
  const outcome = await rawExchange(server.port, print('Content-Length: 5\r\n'), { answers: 1, close: true });
  assert.equal(outcome.responses.length, 1);
  assert.equal(outcome.responses[0].status, 400);
  assert.equal(header(outcome.responses[0], 'connection'), 'close');
  assert.equal(JSON.parse(outcome.responses[0].body).result.content.message, 'several Content-Length header fields with different values');
  assert.equal(printed, before);
});

test('a head over uWS\'s 4 KiB limit (a long target with a Content-Length that is no number): 431 with Connection: close, and no handler runs', async () => {
  const before = printed;
  const head = `POST /api/v1/print/${'p'.repeat(55_000)} HTTP/1.1\r\nHost: a\r\n${KEY}Content-Type: application/json\r\nContent-Length: 1e3x\r\n\r\n{}`;
  const outcome = await rawExchange(server.port, head, { answers: 1, close: true });
  assert.deepEqual(outcome.responses.map((r) => [r.status, header(r, 'connection')]), [[431, 'close']]);
  assert.equal(printed, before);
});

test('disagreeing Content-Length hiding a request in the body: closed with nothing run (no answer to the hidden request)', async () => {
  const before = printed;
  const hidden = print();
  const outcome = await rawExchange(server.port, print(`Content-Length: ${2 + hidden.length}\r\n`) + hidden, { answers: 0, close: true });
  assert.ok(outcome.responses.every((r) => r.status === 400), JSON.stringify(outcome.responses));
  assert.equal(printed, before);
});

test('Content-Length repeated with the same value is one length (RFC 9112 section 6.3 allows it)', async () => {
  const outcome = await rawExchange(server.port, print('Content-Length: 2\r\n'), { answers: 1 });
  assert.equal(outcome.responses[0].status, 200);
});

test('(uWS) refused below our code, and no handler runs: Content-Length with Transfer-Encoding, a Content-Length list, HTTP/1.1 without Host, a Content-Length that is no number: 400 with Connection: close', async () => {
  const before = printed;
  const requests = [
    `POST /api/v1/print HTTP/1.1\r\nHost: a\r\n${KEY}Content-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    `POST /api/v1/print HTTP/1.1\r\nHost: a\r\n${KEY}Content-Type: application/json\r\nContent-Length: 2, 2\r\n\r\n{}`,
    `GET /api/v1/status HTTP/1.1\r\n${KEY}\r\n`,
    `POST /api/v1/print HTTP/1.1\r\nHost: a\r\n${KEY}Content-Type: application/json\r\nContent-Length: 1e3x\r\n\r\n{}`,
  ];
  for (const request of requests) {
    const outcome = await rawExchange(server.port, request, { answers: 1, close: true });
    assert.deepEqual(outcome.responses.map((r) => [r.status, header(r, 'connection')]), [[400, 'close']], request);
  }
  assert.equal(printed, before);
});

test('a chunked POST body is read', async () => {
  const outcome = await rawExchange(server.port, `POST /api/v1/print HTTP/1.1\r\nHost: a\r\n${KEY}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`, { answers: 1 });
  assert.equal(outcome.responses[0].status, 200);
});

// Decided (issue 35): uWS answers these itself and closes: HTTP/1.0, absolute-form, bare LF and NUL 505, obs-fold and a
// space before the colon 400.
test('(uWS) HTTP/1.0, absolute-form, bare LF, NUL: 505; obs-fold, a space before the colon: 400; each with Connection: close, at once', async () => {
  const requests: Array<[string | Buffer, number]> = [
    [`GET /api/v1/status HTTP/1.0\r\nHost: a\r\n${KEY}\r\n`, 505],
    [`GET http://a/api/v1/status HTTP/1.1\r\nHost: a\r\n${KEY}\r\n`, 505],
    [`GET /api/v1/status HTTP/1.1\nHost: a\n${KEY.trimEnd()}\n\n`, 505],
    [Buffer.from(`GET /api/v1/st\0atus HTTP/1.1\r\nHost: a\r\n${KEY}\r\n`), 505],
    [`GET /api/v1/status HTTP/1.1\r\nHost: a\r\n X-Folded: b\r\n${KEY}\r\n`, 400],
    [`GET /api/v1/status HTTP/1.1\r\nHost : a\r\n${KEY}\r\n`, 400],
  ];
  for (const [request, status] of requests) {
    const outcome = await rawExchange(server.port, request, { answers: 1, close: true });
    assert.deepEqual(outcome.responses.map((r) => [r.status, header(r, 'connection')]), [[status, 'close']], String(request));
  }
});
