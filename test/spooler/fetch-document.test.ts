// *_url fetching against a local HTTP server: redirects up to the limit, the body limit (declared or streamed),
// the time limit (a server that stops answering), and non-http targets, each failing with what happened.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { DeviceError } from '../../src/errors';
import { fetchDocument, type FetchLimits } from '../../src/spooler/fetch-document';

const LIMITS: FetchLimits = { timeoutMs: 5000, maxRedirects: 5, maxBytes: 1024 };
let server: http.Server;
let base: string;

before(async () => {
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const hops = Number(url.searchParams.get('hops') ?? 0);
    if (url.pathname === '/redirect') {
      res.writeHead(302, { Location: hops > 1 ? `/redirect?hops=${hops - 1}` : '/label' }).end();
    } else if (url.pathname === '/to-file') {
      res.writeHead(302, { Location: 'file:///etc/passwd' }).end();
    } else if (url.pathname === '/label') {
      res.end('^XA^FDhi^FS^XZ');
    } else if (url.pathname === '/declared-big') {
      res.writeHead(200, { 'Content-Length': '4096' }).end('x'.repeat(4096));
    } else if (url.pathname === '/streamed-big') {
      res.writeHead(200); // chunked: no length to refuse up front
      for (let i = 0; i < 8; i += 1) res.write('y'.repeat(512));
      res.end();
    } else if (url.pathname === '/stalls') {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('partial'); // and never the rest
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

async function failure(url: string, limits = LIMITS): Promise<DeviceError> {
  const err = await fetchDocument(url, limits).then(() => null, (e: unknown) => e);
  assert.ok(err instanceof DeviceError, `expected a DeviceError, got ${String(err)}`);
  assert.equal(err.code, 'FETCH_FAILED');
  return err;
}

test('five redirects are followed; a sixth fails naming the limit', async () => {
  assert.equal((await fetchDocument(`${base}/redirect?hops=5`, LIMITS)).toString(), '^XA^FDhi^FS^XZ');
  assert.equal((await failure(`${base}/redirect?hops=6`)).message, `fetching ${base}/redirect?hops=6 failed: more than 5 redirects`);
});

test('a redirect to a non-http URL is refused', async () => {
  assert.match((await failure(`${base}/to-file`)).message, /only http and https URLs are allowed/);
});

test('a body over the limit fails, whether its length is declared or only streamed', async () => {
  assert.match((await failure(`${base}/declared-big`)).message, /document of 4096 bytes exceeds the limit of 1024/);
  assert.match((await failure(`${base}/streamed-big`)).message, /document exceeds the limit of 1024 bytes/);
});

test('a server that stops sending fails at the time limit, saying so', async () => {
  assert.equal((await failure(`${base}/stalls`, { ...LIMITS, timeoutMs: 300 })).message, `fetching ${base}/stalls failed: no complete answer within 0.3 s`);
});
