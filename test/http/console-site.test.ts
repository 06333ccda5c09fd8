// The console mount: files from a folder or from the embedded table, served at / with the page's security headers on every answer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { consoleMount, CONSOLE_HEADERS } from '../../src/http/console-site';
import { memoryFiles } from '../../src/http/static-memory';
import { tempDir } from '../helpers/temp-dir';
import { request, startHttpServer, type FixtureServer } from './http-server-fixture';

let server: FixtureServer;

before(async () => {
  const dir = tempDir('console-site');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(dir, 'app-QEY375CQ.js'), 'console.log(1)');
  const mount = await consoleMount({ dir });
  assert.ok(mount);
  server = await startHttpServer({ statics: [mount] });
});
after(() => server.stop());

test('index.html at /, deep links and hashed assets carry the CSP, X-Frame-Options and Referrer-Policy, 304s too; the API stays keyed', async () => {
  for (const path of ['/', '/printers/tcp_10-0-0-5_9100', '/app-QEY375CQ.js']) {
    const answer = await request(server.port, 'GET', path);
    assert.equal(answer.status, 200, path);
    for (const [name, value] of Object.entries(CONSOLE_HEADERS)) assert.equal(answer.headers[name.toLowerCase()], value, `${path} ${name}`);
    const again = await request(server.port, 'GET', path, { 'If-None-Match': String(answer.headers.etag) });
    assert.equal(again.status, 304);
    assert.equal(again.headers['content-security-policy'], CONSOLE_HEADERS['Content-Security-Policy']);
  }
  assert.equal((await request(server.port, 'GET', '/app-QEY375CQ.js')).headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.equal((await request(server.port, 'GET', '/api/v1/printers')).status, 401);
});

test('the CSP allows only the device itself: no inline script, no other origin, no framing', () => {
  const csp = CONSOLE_HEADERS['Content-Security-Policy'];
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self';/);
  assert.match(csp, /connect-src 'self';/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|https?:|\*/);
});

test('embedded files (name → base64) list their folders and read back as bytes', async () => {
  const files = memoryFiles({ 'index.html': Buffer.from('<p>hi</p>').toString('base64'), 'assets/app.js': Buffer.from('x()').toString('base64') });
  assert.equal(files.kind(''), 'dir');
  assert.equal(files.kind('assets'), 'dir');
  assert.equal(files.kind('assets/app.js'), 'file');
  assert.equal(files.kind('nope'), null);
  assert.equal((await files.read('assets/app.js')).toString(), 'x()');
  await assert.rejects(files.read('assets'), /not a listed file/);
});
