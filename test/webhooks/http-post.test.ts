// The receiver POST: status of the answer, no answer within the limit, refused connections, a stop, a body that never ends.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { guardedLookup } from '../../src/spooler/fetch-address';
import { httpPost, httpPoster } from '../../src/webhooks/http-post';

let server: http.Server;
let base = '';
const bodies: string[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      bodies.push(body);
      if (req.url === '/ok') res.writeHead(204).end();
      if (req.url === '/teapot') res.writeHead(418).end('no');
      if (req.url === '/endless') res.writeHead(200).write('still coming');
      // '/silent': never answers
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const post = (path: string, signal = new AbortController().signal, timeoutMs = 300) => httpPost(`${base}${path}`, { 'x-test': '1' }, '{"a":1}', { timeoutMs, signal });

test('the status comes back, whatever it is; the body arrives as sent', async () => {
  assert.deepEqual(await post('/ok'), { status: 204, error: null });
  assert.deepEqual(await post('/teapot'), { status: 418, error: null });
  assert.equal(bodies[0], '{"a":1}');
});

test('no answer within the limit is an error; a status that came in time counts though its body never ends', async () => {
  assert.deepEqual(await post('/silent'), { status: null, error: 'no answer within 300 ms' });
  assert.deepEqual(await post('/endless'), { status: 200, error: null });
});

test('a refused connection, a stop and a bad URL are errors, never throws', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const refused = await httpPost(`http://127.0.0.1:${port}/`, {}, '{}', { timeoutMs: 5000, signal: new AbortController().signal });
  assert.equal(refused.error, 'could not get an answer', 'the errno (ECONNREFUSED) would tell a closed port from an open one');
  const stop = new AbortController();
  const stopped = post('/silent', stop.signal, 60_000);
  stop.abort();
  assert.deepEqual(await stopped, { status: null, error: 'the daemon stopped before an answer' });
  const bad = await httpPost('not a url', {}, '{}', { timeoutMs: 5000, signal: new AbortController().signal });
  assert.equal(bad.status, null);
  assert.ok(bad.error);
});

test('link-local, multicast, unspecified and broadcast receivers written as addresses are refused without connecting', async () => {
  for (const url of ['http://169.254.169.254/latest/meta-data', 'http://[fe80::1]/', 'http://224.0.0.251/', 'http://[ff02::1]:8080/', 'http://0.0.0.0:1/', 'http://255.255.255.255/', 'http://[::ffff:169.254.169.254]/']) {
    assert.deepEqual(await httpPost(url, {}, '{}', { timeoutMs: 5000, signal: new AbortController().signal }), { status: null, error: 'fetch refused' }, url);
  }
});

test('a receiver name that resolves to a refused address is refused at the lookup; one that resolves to loopback is posted to', async () => {
  const resolvingTo = (address: string) =>
    guardedLookup(((_host: string, _options: unknown, callback: (err: null, addresses: LookupAddress[]) => void) => callback(null, [{ address, family: 4 }])) as never);
  const options = { timeoutMs: 5000, signal: new AbortController().signal };
  const port = new URL(base).port;
  assert.deepEqual(await httpPoster(resolvingTo('169.254.169.254'))(`http://metadata.example:${port}/ok`, {}, '{}', options), { status: null, error: 'fetch refused' });
  assert.deepEqual(await httpPoster(resolvingTo('127.0.0.1'))(`http://receiver.example:${port}/ok`, {}, '{}', options), { status: 204, error: null });
});
