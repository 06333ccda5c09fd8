// WebSocket routes: authentication by header or first message, refusals as the API envelope, echo through the route table, close, slow readers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiAuth } from '../../src/http/auth';
import { FailureLimiter } from '../../src/http/rate-limiter';
import type { SocketRequest, SocketRoute } from '../../src/http/socket-route';
import { request, startHttpServer, TEST_KEY, type FixtureServer } from './http-server-fixture';
import { connectWs, isSocket, type Refused, type TestSocket } from './ws-test-client';

const closes: Array<{ code: number; reason: string }> = [];
const requests: SocketRequest[] = [];

/** The demonstration route: echoes text, answers `flood` with many large messages, `bye` by closing with 4000. */
const echo: SocketRoute = {
  path: '/echo',
  summary: 'echo (test only)',
  open(socket, request) {
    requests.push(request);
    socket.send('ready');
    return {
      message(text) {
        if (text === 'bye') socket.close(4000, 'bye');
        else if (text === 'flood') {
          const big = 'x'.repeat(64 * 1024);
          for (let i = 0; i < 64 && socket.send(big); i += 1);
        } else socket.send(`echo:${text}`);
      },
      closed: (code, reason) => closes.push({ code, reason }),
    };
  },
};

let server: FixtureServer;

before(async () => {
  server = await startHttpServer({
    auth: new ApiAuth(() => TEST_KEY, new FailureLimiter({ maxFailures: 3, windowMs: 60_000 })),
    sockets: [echo],
    socketSettings: { authTimeoutMs: 300, maxBufferedBytes: 256 * 1024 },
  });
});

after(() => server.stop());

async function open(path: string, headers: Record<string, string> = {}): Promise<TestSocket> {
  const answer = await connectWs(server.port, path, headers);
  assert.ok(isSocket(answer), `expected an upgrade, got ${JSON.stringify(answer)}`);
  return answer;
}

async function refused(path: string, headers: Record<string, string>, localAddress?: string): Promise<Refused> {
  const answer = await connectWs(server.port, path, headers, 5000, localAddress);
  assert.ok(!isSocket(answer), 'expected the upgrade to be refused');
  return answer;
}

test('X-API-Key on the upgrade: the socket opens and echoes through the route table', async () => {
  const ws = await open('/api/v1/echo?since=41', { 'X-API-Key': TEST_KEY });
  assert.deepEqual(await ws.next(), { kind: 'text', text: 'ready' });
  ws.sendText('hello');
  assert.deepEqual(await ws.next(), { kind: 'text', text: 'echo:hello' });
  const request = requests.at(-1);
  assert.deepEqual(request?.auth, { via: 'header' });
  assert.equal(request?.query.get('since'), '41');
  assert.equal(request?.remoteAddress, '127.0.0.1');
  ws.close(1000, 'done');
  assert.deepEqual(await ws.closed(), { code: 1000, reason: 'done' });
});

test('browser way: the first message {"type":"auth","apiKey"} authenticates, with its other fields handed to the route', async () => {
  const ws = await open('/api/v1/echo');
  ws.sendText(JSON.stringify({ type: 'auth', apiKey: TEST_KEY, since: 7 }));
  assert.deepEqual(await ws.next(), { kind: 'text', text: 'ready' });
  assert.deepEqual(requests.at(-1)?.auth, { via: 'message', message: { type: 'auth', apiKey: TEST_KEY, since: 7 } });
  ws.sendText('from a browser');
  assert.deepEqual(await ws.next(), { kind: 'text', text: 'echo:from a browser' });
  ws.raw.destroy();
});

test('a wrong key in the header is refused before upgrading, with the 401 envelope', async () => {
  const answer = await refused('/api/v1/echo', { 'X-API-Key': 'wrong' }, '127.0.0.2');
  assert.equal(answer.status, 401);
  assert.equal(answer.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(answer.body), {
    status: 'error',
    statusCode: 401,
    result: { module: '/echo', message: 'Unauthorized', content: { message: 'Missing or invalid API key' } },
  });
});

test('no key at all: nothing reaches the route; no auth message in time closes with 4408, a wrong or missing key in it with 4401', async () => {
  const opened = requests.length;
  const silent = await open('/api/v1/echo');
  assert.deepEqual(await silent.closed(), { code: 4408, reason: 'Authentication timeout' });
  const wrong = await open('/api/v1/echo');
  wrong.sendText(JSON.stringify({ type: 'auth', apiKey: 'nope' }));
  assert.deepEqual(await wrong.closed(), { code: 4401, reason: 'Unauthorized' });
  const other = await open('/api/v1/echo');
  other.sendText('hello');
  assert.deepEqual(await other.closed(), { code: 4401, reason: 'Unauthorized' });
  assert.equal(requests.length, opened);
});

test('failed keys by either way count toward the 429 limit, which then refuses the upgrade with Retry-After', async () => {
  const address = '127.0.0.3';
  for (let i = 0; i < 3; i += 1) assert.equal((await refused('/api/v1/echo', { 'X-API-Key': 'wrong' }, address)).status, 401);
  const ws = await connectWs(server.port, '/api/v1/echo', {}, 5000, address);
  assert.ok(isSocket(ws));
  ws.sendText(JSON.stringify({ type: 'auth', apiKey: 'still wrong' }));
  assert.equal((await ws.closed()).code, 4401);
  for (const headers of [{ 'X-API-Key': TEST_KEY }, {}] as Array<Record<string, string>>) {
    const blocked = await refused('/api/v1/echo', headers, address);
    assert.equal(blocked.status, 429);
    assert.ok(Number(blocked.headers['retry-after']) > 0);
    assert.equal(JSON.parse(blocked.body).result.message, 'Too many requests');
  }
});

test('the route closes with its own code; the close handler sees the client close code', async () => {
  const ws = await open('/api/v1/echo', { 'X-API-Key': TEST_KEY });
  await ws.next();
  ws.sendText('bye');
  assert.deepEqual(await ws.closed(), { code: 4000, reason: 'bye' });
  const client = await open('/api/v1/echo', { 'X-API-Key': TEST_KEY });
  await client.next();
  const before = closes.length;
  client.close(4123, 'leaving');
  assert.deepEqual(await client.closed(), { code: 4123, reason: 'leaving' });
  assert.deepEqual(closes.slice(before), [{ code: 4123, reason: 'leaving' }]);
});

test('binary messages close with 1003', async () => {
  const ws = await open('/api/v1/echo', { 'X-API-Key': TEST_KEY });
  await ws.next();
  ws.sendBinary(Buffer.from([1, 2, 3]));
  assert.equal((await ws.closed()).code, 1003);
});

test('a client that does not read is closed with 1013 once more than the bound is queued', async () => {
  const ws = await open('/api/v1/echo', { 'X-API-Key': TEST_KEY });
  await ws.next();
  ws.raw.pause();
  const before = closes.length;
  ws.sendText('flood');
  const deadline = Date.now() + 5000;
  while (closes.length === before) {
    assert.ok(Date.now() < deadline, 'the slow reader was not closed');
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.equal(closes[before].code, 1013);
  ws.raw.destroy();
});

test('a GET without Upgrade on a socket path is the API 404; server close ends open sockets with 1001', async () => {
  const plain = await request(server.port, 'GET', '/api/v1/echo', { 'X-API-Key': TEST_KEY });
  assert.equal(plain.status, 404);
  assert.equal(JSON.parse(plain.body.toString()).result.message, 'Not found');
  const ws = await open('/api/v1/echo', { 'X-API-Key': TEST_KEY });
  await ws.next();
  const other = await startHttpServer({ sockets: [echo] });
  const held = await connectWs(other.port, '/api/v1/echo', { 'X-API-Key': TEST_KEY });
  assert.ok(isSocket(held));
  await held.next();
  await other.stop();
  assert.equal((await held.closed()).code, 1001);
  ws.raw.destroy();
});
