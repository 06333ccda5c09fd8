// Static mounts: content types, ETag and 304, Cache-Control, compression, HEAD, traversal refusals, SPA fallback; the API 404 unchanged.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { staticDirectory } from '../../src/http/static-dir';
import { tempDir } from '../helpers/temp-dir';
import { request, startHttpServer, TEST_KEY, type FixtureServer } from './http-server-fixture';

const INDEX = '<!doctype html><title>console</title>' + '<p>printproxyd console</p>'.repeat(50);
const APP_JS = 'export const app = () => "printproxyd";\n'.repeat(200);
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

let server: FixtureServer;
let outside: string;

before(async () => {
  const root = tempDir('static-root');
  const site = join(root, 'site');
  mkdirSync(join(site, 'assets'), { recursive: true });
  mkdirSync(join(site, 'docs'), { recursive: true });
  writeFileSync(join(site, 'index.html'), INDEX);
  writeFileSync(join(site, 'assets', 'index-BxT3k9aQ.js'), APP_JS);
  writeFileSync(join(site, 'assets', 'app.mjs'), APP_JS);
  writeFileSync(join(site, 'assets', 'style.css'), 'body { color: black; }\n'.repeat(50));
  writeFileSync(join(site, 'assets', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
  writeFileSync(join(site, 'assets', 'logo.png'), PNG);
  writeFileSync(join(site, 'favicon.ico'), Buffer.alloc(64, 1));
  writeFileSync(join(site, 'manifest.json'), '{"name":"printproxyd"}');
  writeFileSync(join(site, 'assets', 'font.woff2'), Buffer.alloc(16, 2));
  writeFileSync(join(site, 'assets', 'index-BxT3k9aQ.js.map'), '{"version":3}');
  writeFileSync(join(site, 'robots.txt'), 'User-agent: *\n');
  writeFileSync(join(site, 'docs', 'index.html'), '<p>docs</p>');
  outside = join(root, 'secret.txt');
  writeFileSync(outside, 'secret');
  symlinkSync(outside, join(site, 'link.txt'));
  const files = await staticDirectory(site);
  server = await startHttpServer({ statics: [{ urlPrefix: '/', files, spa: true }, { urlPrefix: '/plain/', files }] });
});

after(() => server.stop());

const get = (path: string, headers: Record<string, string> = {}) => request(server.port, 'GET', path, headers);

test('each extension gets its Content-Type, and no API key is needed', async () => {
  const expected: Record<string, string> = {
    '/': 'text/html; charset=utf-8',
    '/index.html': 'text/html; charset=utf-8',
    '/assets/index-BxT3k9aQ.js': 'text/javascript; charset=utf-8',
    '/assets/app.mjs': 'text/javascript; charset=utf-8',
    '/assets/style.css': 'text/css; charset=utf-8',
    '/assets/logo.svg': 'image/svg+xml',
    '/assets/logo.png': 'image/png',
    '/favicon.ico': 'image/x-icon',
    '/manifest.json': 'application/json',
    '/assets/font.woff2': 'font/woff2',
    '/assets/index-BxT3k9aQ.js.map': 'application/json',
    '/robots.txt': 'text/plain; charset=utf-8',
  };
  for (const [path, type] of Object.entries(expected)) {
    const answer = await get(path);
    assert.equal(answer.status, 200, path);
    assert.equal(answer.headers['content-type'], type, path);
    assert.equal(answer.headers['x-content-type-options'], 'nosniff', path);
  }
  assert.deepEqual((await get('/assets/logo.png')).body, PNG);
  assert.equal((await get('/')).body.toString(), INDEX);
});

test('ETag is the content hash; If-None-Match answers 304 without a body', async () => {
  const first = await get('/assets/style.css');
  const etag = String(first.headers.etag);
  assert.match(etag, /^"[A-Za-z0-9_-]{22}"$/);
  const again = await get('/assets/style.css', { 'If-None-Match': etag });
  assert.equal(again.status, 304);
  assert.equal(again.body.length, 0);
  assert.equal(again.headers.etag, etag);
  assert.equal((await get('/assets/style.css', { 'If-None-Match': `"other", W/${etag}` })).status, 304);
  assert.equal((await get('/assets/style.css', { 'If-None-Match': '"other"' })).status, 200);
  assert.notEqual((await get('/robots.txt')).headers.etag, etag);
});

test('Cache-Control: no-cache for HTML and unhashed names, a year and immutable for content-hashed names', async () => {
  assert.equal((await get('/')).headers['cache-control'], 'no-cache');
  assert.equal((await get('/assets/app.mjs')).headers['cache-control'], 'no-cache');
  assert.equal((await get('/assets/index-BxT3k9aQ.js')).headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal((await get('/assets/index-BxT3k9aQ.js.map')).headers['cache-control'], 'public, max-age=31536000, immutable');
});

test('brotli or gzip by Accept-Encoding for compressible types, with Vary and its own ETag', async () => {
  const plain = await get('/assets/app.mjs');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.headers.vary, 'Accept-Encoding');
  const br = await get('/assets/app.mjs', { 'Accept-Encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers.vary, 'Accept-Encoding');
  assert.ok(br.body.length < APP_JS.length / 4);
  assert.equal(brotliDecompressSync(br.body).toString(), APP_JS);
  const gz = await get('/assets/app.mjs', { 'Accept-Encoding': 'gzip, br;q=0' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(gz.body).toString(), APP_JS);
  assert.equal(new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]).size, 3);
  assert.equal((await get('/assets/app.mjs', { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) })).status, 304);
  const again = await get('/assets/app.mjs', { 'Accept-Encoding': 'br' });
  assert.deepEqual(again.body, br.body);
});

test('images and fonts are never compressed and do not vary', async () => {
  const png = await get('/assets/logo.png', { 'Accept-Encoding': 'br, gzip' });
  assert.equal(png.headers['content-encoding'], undefined);
  assert.equal(png.headers.vary, undefined);
  assert.deepEqual(png.body, PNG);
});

test('HEAD answers the same headers as GET, with the Content-Length of GET and no body', async () => {
  const getAnswer = await get('/assets/style.css', { 'Accept-Encoding': 'gzip' });
  const head = await request(server.port, 'HEAD', '/assets/style.css', { 'Accept-Encoding': 'gzip' });
  assert.equal(head.status, 200);
  assert.equal(head.body.length, 0);
  for (const name of ['content-type', 'etag', 'cache-control', 'vary', 'content-encoding']) assert.equal(head.headers[name], getAnswer.headers[name], name);
  assert.equal(head.headers['content-length'], String(getAnswer.body.length));
});

test('path traversal is refused: .., encoded %2e%2e, encoded slash, NUL and backslash are 400; symlinks are not served', async () => {
  for (const path of ['/assets/../index.html', '/%2e%2e/secret.txt', '/assets/%2E%2E/%2e%2e/secret.txt', '/..%2fsecret.txt', '/index.html%00.png', '/assets%5c..%5csecret.txt', '/./index.html', '/bad%zzencoding']) {
    const answer = await get(path);
    assert.equal(answer.status, 400, path);
    assert.equal(JSON.parse(answer.body.toString()).result.message, 'Invalid request', path);
  }
  const link = await get('/plain/link.txt');
  assert.equal(link.status, 404);
  assert.ok(!link.body.toString().includes('secret'));
});

test('single-page app: unknown page paths get index.html, unknown files with an extension are 404', async () => {
  for (const path of ['/printers', '/printers/usb_sn_X/', '/jobs/pj_0123?tab=log']) {
    const answer = await get(path);
    assert.equal(answer.status, 200, path);
    assert.equal(answer.body.toString(), INDEX, path);
    assert.equal(answer.headers['cache-control'], 'no-cache');
  }
  assert.equal((await get('/printers/a.b', { Accept: 'text/html,*/*' })).body.toString(), INDEX);
  const missing = await get('/assets/missing-file.js');
  assert.equal(missing.status, 404);
  assert.equal(JSON.parse(missing.body.toString()).result.message, 'Not found');
});

test('a folder serves its index.html; without the final slash it redirects; a mount without spa answers 404', async () => {
  assert.equal((await get('/docs/')).body.toString(), '<p>docs</p>');
  const redirect = await get('/docs?x=1');
  assert.equal(redirect.status, 308);
  assert.equal(redirect.headers.location, '/docs/?x=1');
  const mountRoot = await get('/plain');
  assert.equal(mountRoot.status, 308);
  assert.equal(mountRoot.headers.location, '/plain/');
  assert.equal((await get('/plain/')).body.toString(), INDEX);
  assert.equal((await get('/plain/printers')).status, 404);
});

test('API paths keep the JSON 404 envelope (and 401 before it), whatever the static mounts', async () => {
  const unknown = await get('/api/v1/nothing-here', { 'X-API-Key': TEST_KEY });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(unknown.body.toString()), {
    status: 'error',
    statusCode: 404,
    result: { module: '/nothing-here', message: 'Not found', content: { message: 'no route for GET /api/v1/nothing-here' } },
  });
  assert.equal((await get('/api/v1/nothing-here')).status, 401);
  assert.equal((await request(server.port, 'POST', '/index.html')).status, 404);
});
