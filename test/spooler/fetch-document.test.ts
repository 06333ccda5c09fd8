// *_url fetching against a local HTTP server: redirects up to the limit, the body limit (declared or streamed),
// the time limit (a server that stops answering), and non-http targets, each failing with what happened.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { DeviceError } from '../../src/errors';
import net from 'node:net';
import type dns from 'node:dns';
import { fetchDocument, maskUrl, type FetchLimits } from '../../src/spooler/fetch-document';
import { guardedLookup, refusedAddress } from '../../src/spooler/fetch-address';

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
    } else if (url.pathname === '/to-link-local') {
      res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/' }).end();
    } else if (url.pathname === '/to-mapped') {
      res.writeHead(302, { Location: 'http://[::ffff:169.254.169.254]/' }).end();
    } else if (url.pathname === '/stalls') {
      res.writeHead(200, { 'Content-Length': '100' });
      res.write('partial'); // and never the rest
    } else {
      res.writeHead(404).end();
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

test('link-local, multicast, unspecified and broadcast targets are refused before any connection, saying only "fetch refused"', async () => {
  for (const host of ['169.254.1.1', '[fe80::1]', '224.0.0.1', '[ff02::1]', '0.0.0.0', '[::]', '255.255.255.255', '[::ffff:169.254.1.1]', '[::ffff:a9fe:101]']) {
    assert.equal((await failure(`http://${host}:8080/x`)).message, 'fetch refused', host);
  }
});

test('a redirect to a refused address is refused on that hop, the message naming nothing of the target', async () => {
  assert.equal((await failure(`${base}/to-link-local`)).message, 'fetch refused');
  assert.equal((await failure(`${base}/to-mapped`)).message, 'fetch refused');
});

test('names are checked on the addresses they resolve to: one refused answer refuses the name', async () => {
  const answers: Record<string, dns.LookupAddress[]> = {
    'metadata.example': [{ address: '169.254.169.254', family: 4 }],
    'mixed.example': [{ address: '10.0.0.7', family: 4 }, { address: 'fe80::1', family: 6 }],
    'erp.example': [{ address: '10.0.0.7', family: 4 }],
  };
  const resolver = ((name: string, _options: unknown, callback: (err: Error | null, addresses: dns.LookupAddress[]) => void) => callback(null, answers[name])) as unknown as typeof dns.lookup;
  const lookup = guardedLookup(resolver);
  const ask = (name: string) => new Promise<string>((resolve) => lookup(name, {}, (err, address) => resolve(err ? err.message : String(address))));
  assert.equal(await ask('metadata.example'), 'fetch refused');
  assert.equal(await ask('mixed.example'), 'fetch refused');
  assert.equal(await ask('erp.example'), '10.0.0.7');
});

test('loopback and LAN addresses stay allowed', () => {
  for (const address of ['127.0.0.1', '::1', '10.1.2.3', '192.168.1.20', '172.16.0.5', 'fd00::1', '8.8.8.8']) assert.equal(refusedAddress(address), false, address);
  for (const address of ['169.254.0.1', 'fe80::1', 'febf::1', '239.1.1.1', 'ff05::2', '0.1.2.3', '::', '::ffff:224.0.0.1']) assert.equal(refusedAddress(address), true, address);
});

test('a closed port and a port that accepts then resets give the same error text', async () => {
  const closed = net.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const closedPort = (closed.address() as net.AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  const resetting = net.createServer((socket) => socket.resetAndDestroy());
  await new Promise<void>((r) => resetting.listen(0, '127.0.0.1', r));
  const resetPort = (resetting.address() as net.AddressInfo).port;
  try {
    const a = (await failure(`http://127.0.0.1:${closedPort}/x`)).message.replace(String(closedPort), 'PORT');
    const b = (await failure(`http://127.0.0.1:${resetPort}/x`)).message.replace(String(resetPort), 'PORT');
    assert.equal(a, b);
    assert.equal(a, 'fetching http://127.0.0.1:PORT/x failed: could not get the document');
  } finally {
    resetting.close();
  }
});

test('a URL with credentials shows its password masked in every error', async () => {
  const url = `${base.replace('http://', 'http://printer:s3cret@')}/missing`;
  const message = (await failure(url)).message;
  assert.ok(!message.includes('s3cret'), message);
  assert.match(message, /^fetching http:\/\/printer:\*\*\*@127\.0\.0\.1:\d+\/missing failed: HTTP 404$/);
  assert.equal(maskUrl('https://u:p@h/x'), 'https://u:***@h/x');
  assert.equal(maskUrl('https://h/x'), 'https://h/x');
});
