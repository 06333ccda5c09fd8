// The large-body budget: bodies of unknown length (chunked) take from it as they grow, so one upload cannot hold it all.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import type { Route } from '../../src/http/route';
import { startHttpServer, TEST_KEY, type FixtureServer } from './http-server-fixture';

const MiB = 1024 * 1024;
let server: FixtureServer;

const routes: Route[] = [
  {
    method: 'put',
    path: '/upload',
    summary: 'takes raw bytes',
    tag: 't',
    rawBody: true,
    handler: (req) => ({ message: 'Stored', content: { bytes: (req.body as Buffer).length } }),
  },
];

before(async () => {
  server = await startHttpServer({ routes, policy: { maxBodyBytes: () => 4 * MiB, allowedOrigins: () => ['*'] } });
});

after(() => server.stop());

/** A PUT whose body is written by the test; `length` null sends it chunked. */
function upload(length: number | null): { req: http.ClientRequest; answer: Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> } {
  const headers: Record<string, string> = { 'X-API-Key': TEST_KEY, 'Content-Type': 'application/octet-stream' };
  if (length !== null) headers['Content-Length'] = String(length);
  const req = http.request({ host: '127.0.0.1', port: server.port, method: 'PUT', path: '/api/v1/upload', headers, agent: false });
  if (length === null) req.setHeader('Transfer-Encoding', 'chunked');
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  return { req, answer };
}

/** Writes `bytes` zero bytes in 64 KiB pieces, waiting for the socket to drain. */
async function send(req: http.ClientRequest, bytes: number): Promise<void> {
  const piece = Buffer.alloc(64 * 1024);
  for (let sent = 0; sent < bytes; sent += piece.length) {
    if (!req.write(piece.subarray(0, Math.min(piece.length, bytes - sent)))) await once(req, 'drain');
  }
}

test('two small chunked uploads at once are both taken', async () => {
  const a = upload(null);
  const b = upload(null);
  await Promise.all([send(a.req, 200 * 1024), send(b.req, 300 * 1024)]);
  a.req.end();
  b.req.end();
  const [first, second] = await Promise.all([a.answer, b.answer]);
  assert.equal(first.status, 200, first.body);
  assert.equal(second.status, 200, second.body);
  assert.equal(JSON.parse(first.body).result.content.bytes, 200 * 1024);
  assert.equal(JSON.parse(second.body).result.content.bytes, 300 * 1024);
});

test('while a large declared body is held, another large one is refused 503 with Retry-After, declared or chunked; then taken again', async () => {
  const held = upload(3 * MiB);
  await send(held.req, MiB);

  // the refusal comes once the body has been read and dropped: answered before, it would be lost to a reset
  const declared = upload(2 * MiB);
  await send(declared.req, 2 * MiB);
  declared.req.end();
  const refused = await declared.answer;
  assert.equal(refused.status, 503, refused.body);
  assert.equal(refused.headers['retry-after'], '2');
  assert.match(JSON.parse(refused.body).result.content.message, /receiving other large documents/);

  const chunked = upload(null);
  const growing = send(chunked.req, 3 * MiB).catch(() => undefined);
  const refusedChunked = await chunked.answer;
  assert.equal(refusedChunked.status, 503, refusedChunked.body);
  assert.match(JSON.parse(refusedChunked.body).result.content.message, /receiving other large documents/);
  chunked.req.destroy();
  await growing;

  await send(held.req, 2 * MiB);
  held.req.end();
  const done = await held.answer;
  assert.equal(done.status, 200, done.body);
  assert.equal(JSON.parse(done.body).result.content.bytes, 3 * MiB);

  const next = upload(2 * MiB);
  await send(next.req, 2 * MiB);
  next.req.end();
  const accepted = await next.answer;
  assert.equal(accepted.status, 200, accepted.body);
});
