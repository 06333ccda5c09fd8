// The Http1Front before a uWS app (what the daemon runs on uWS 20.30): the heads uWS would hold silently are answered at
// once, HTTP/1.0 and absolute-form are served, and the handler still sees the client's own address.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { once } from 'node:events';
import { Http1Front } from '../../src/http/http1-front';
import type { Route } from '../../src/http/route';
import { silentLogger } from '../../src/log';
import { startHttpServer, TEST_KEY, type FixtureServer } from './http-server-fixture';
import { header, rawExchange } from './raw-http';
import { callApi } from '../helpers/daemon-process';
import { until } from '../helpers/until';

const routes: Route[] = [
  { method: 'get', path: '/status', summary: 'status', tag: 't', handler: () => ({ message: 'Status', content: { up: true } }) },
  { method: 'get', path: '/whoami', summary: 'the client address', tag: 't', handler: (req) => ({ message: 'You', content: { address: req.remoteAddress } }) },
];
const KEY = `X-API-Key: ${TEST_KEY}\r\n`;
let server: FixtureServer;

before(async () => {
  server = await startHttpServer({ routes, front: new Http1Front({ logger: silentLogger }) });
});
after(() => server.stop());

test('HTTP/1.0: the answer, then the connection closes (no keep-alive for 1.0)', async () => {
  const outcome = await rawExchange(server.port, `GET /api/v1/status HTTP/1.0\r\n${KEY}\r\n`, { answers: 1, close: true }, 3000);
  assert.equal(outcome.responses[0].status, 200);
  assert.deepEqual(JSON.parse(outcome.responses[0].body).result.content, { up: true });
  assert.equal(outcome.closed, true);
});

test('absolute-form: served like its path, and the connection goes on', async () => {
  const outcome = await rawExchange(server.port, `GET http://printer.local/api/v1/status HTTP/1.1\r\nHost: printer.local\r\n${KEY}\r\nGET /api/v1/status HTTP/1.1\r\nHost: a\r\n${KEY}\r\n`, { answers: 2 }, 3000);
  assert.deepEqual(outcome.responses.map((r) => r.status), [200, 200]);
  assert.equal(outcome.closed, false);
});

test('bare LF, NUL, obs-fold, a space before the colon: 400 at once, naming the fault, Connection: close, in the API envelope', async () => {
  const cases: Array<[string | Buffer, RegExp]> = [
    [`GET /api/v1/status HTTP/1.1\nHost: a\n${KEY.trimEnd()}\n\n`, /bare LF/],
    [Buffer.from(`GET /api/v1/st\0atus HTTP/1.1\r\nHost: a\r\n${KEY}\r\n`, 'latin1'), /NUL/],
    [`GET /api/v1/status HTTP/1.1\r\nHost: a\r\n X-Folded: b\r\n${KEY}\r\n`, /obs-fold/],
    [`GET /api/v1/status HTTP/1.1\r\nHost : a\r\n${KEY}\r\n`, /space before the colon/],
  ];
  for (const [request, fault] of cases) {
    const outcome = await rawExchange(server.port, request, { answers: 1, close: true }, 3000);
    const [answer] = outcome.responses;
    assert.equal(answer.status, 400);
    assert.equal(header(answer, 'connection'), 'close');
    const body = JSON.parse(answer.body);
    assert.equal(body.status, 'error');
    assert.equal(body.statusCode, 400);
    assert.match(body.result.content.message, fault);
    assert.equal(outcome.closed, true);
  }
});

test('a head over 64 KiB, whole or still arriving: 431 and close, the envelope naming its path', async () => {
  for (const request of [`GET /api/v1/status HTTP/1.1\r\nHost: a\r\n${KEY}X-Big: ${'b'.repeat(70_000)}\r\n\r\n`, `GET /api/v1/status HTTP/1.1\r\nHost: a\r\nX-Big: ${'b'.repeat(70_000)}`]) {
    const outcome = await rawExchange(server.port, request, { answers: 1, close: true }, 3000);
    assert.equal(outcome.responses[0].status, 431);
    assert.match(JSON.parse(outcome.responses[0].body).result.content.message, /over 65536 bytes/);
    assert.equal(JSON.parse(outcome.responses[0].body).result.module, '/status');
  }
  const longPath = `/api/v1/print/${'p'.repeat(80_000)}`;
  const outcome = await rawExchange(server.port, `POST ${longPath} HTTP/1.1\r\nHost: a\r\n\r\n`, { answers: 1, close: true }, 3000);
  assert.equal(outcome.responses[0].status, 431);
  const module = JSON.parse(outcome.responses[0].body).result.module as string;
  assert.ok(module.startsWith('/print/ppp') && longPath.startsWith(`/api/v1${module}`), 'the start of the path, read up to the limit');
});

test('a request line with no line end is refused with 431 once 64 KiB are in, not held (until 1 MiB or the head timeout)', async () => {
  for (const request of [`GET /api/v1/${'a'.repeat(70_000)}`, 'G'.repeat(70_000)]) {
    const outcome = await rawExchange(server.port, request, { answers: 1, close: true }, 3000);
    assert.equal(outcome.responses[0].status, 431);
    assert.match(JSON.parse(outcome.responses[0].body).result.content.message, /over 65536 bytes/);
  }
});

test('an HTTP/2 preface on the HTTP/1.1 port: 505 and close', async () => {
  const outcome = await rawExchange(server.port, 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', { answers: 1, close: true }, 3000);
  assert.equal(outcome.responses[0].status, 505);
});

test('the handler sees the client its own address (127.0.0.2), not the front', async () => {
  const res = await callApi(`http://127.0.0.1:${server.port}`, TEST_KEY, 'GET', '/whoami', { localAddress: '127.0.0.2' });
  assert.equal(res.status, 200);
  assert.equal(res.body.result.content.address, '127.0.0.2');
});

test('a client that sends half a head and then goes quiet is closed by the front, not held', async () => {
  const front = new Http1Front({ logger: silentLogger, headTimeoutMs: 200 });
  const quiet = await startHttpServer({ routes, front });
  try {
    const socket = net.connect(quiet.port, '127.0.0.1');
    socket.write('GET /api/v1/status HTTP/1.1\r\nHost: a\r\n');
    await new Promise<void>((resolve) => socket.on('close', () => resolve()));
    assert.equal(socket.bytesRead, 0, 'closed without an answer');
  } finally {
    await quiet.stop();
  }
});

test('after close the port refuses connections', async () => {
  const front = new Http1Front({ logger: silentLogger });
  const closing = await startHttpServer({ routes, front });
  await closing.stop();
  await assert.rejects(callApi(`http://127.0.0.1:${closing.port}`, TEST_KEY, 'GET', '/status'), /ECONNREFUSED/);
});

test('a refusal answered while the body still arrives reaches the client every time (uWS closes at once; the front reads its answer first)', async () => {
  const MiB = 1024 * 1024;
  const upload: Route = { method: 'put', path: '/upload', summary: 'raw bytes', tag: 't', rawBody: true, handler: (req) => ({ message: 'Stored', content: { bytes: (req.body as Buffer).length } }) };
  const budget = await startHttpServer({ routes: [upload], front: new Http1Front({ logger: silentLogger }), policy: { maxBodyBytes: () => 4 * MiB, allowedOrigins: () => ['*'] } });
  const put = (length: number | null) => {
    const headers: Record<string, string> = { 'X-API-Key': TEST_KEY, 'Content-Type': 'application/octet-stream' };
    if (length === null) headers['Transfer-Encoding'] = 'chunked';
    else headers['Content-Length'] = String(length);
    const req = http.request({ host: '127.0.0.1', port: budget.port, method: 'PUT', path: '/api/v1/upload', headers, agent: false });
    const answer = new Promise<number | string>((resolve) => {
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', (err) => resolve(err.message));
    });
    req.flushHeaders();
    return { req, answer };
  };
  const send = async (req: http.ClientRequest, bytes: number) => {
    const piece = Buffer.alloc(64 * 1024);
    for (let sent = 0; sent < bytes; sent += piece.length) if (!req.write(piece)) await once(req, 'drain');
  };
  try {
    // 3 MiB declared holds most of the 4 MiB budget; each chunked upload is refused once it grows past the rest
    const held = put(3 * MiB);
    await send(held.req, MiB);
    const answers: Array<number | string> = [];
    for (let i = 0; i < 8; i += 1) {
      const refused = put(null);
      const growing = send(refused.req, 3 * MiB).catch(() => undefined);
      answers.push(await refused.answer);
      refused.req.destroy();
      await growing;
    }
    assert.deepEqual(answers, Array(8).fill(503));
    held.req.destroy();
    await held.answer;
  } finally {
    await budget.stop();
  }
});

test('a refused client that goes away leaves no socket behind, though it had more to send (a long head)', async () => {
  const sockets = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
  const before = sockets();
  const refusedOnce = (request: string) =>
    new Promise<void>((resolve) => {
      const socket = net.connect(server.port, '127.0.0.1', () => socket.write(request));
      socket.on('data', () => socket.destroy());
      socket.on('error', () => undefined);
      socket.on('close', () => resolve());
    });
  for (let i = 0; i < 10; i += 1) {
    await refusedOnce(`GET /api/v1/status HTTP/1.1\r\nHost: a\r\n${KEY}X-Big: ${'b'.repeat(70_000)}\r\n\r\n`);
    await refusedOnce(`GET /api/v1/status HTTP/1.1\nHost: a\n\n`);
  }
  // seen before the fix: the 10 long-head connections stayed open, paused and half-closed, until the process ended
  await until('every refused connection is closed on the server side too', () => sockets() === before, 5000);
});
