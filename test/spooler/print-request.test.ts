// Parsing of print requests: content types, inference, base64, lenient fields, local paths, raw bodies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '../helpers/temp-dir';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../../src/errors';
import type { ApiRequest } from '../../src/http/route';
import { parsePrintRequest, inferContentType } from '../../src/http/print-request';

const root = tempDir('roots');
const files = join(root, 'files');
mkdirSync(files);
writeFileSync(join(files, 'label.zpl'), '^XA^XZ');
const outside = tempDir('outside');
writeFileSync(join(outside, 'secret'), 'x');
symlinkSync(join(outside, 'secret'), join(files, 'link'));

function request(body: unknown, extra: Partial<ApiRequest> = {}): ApiRequest {
  return { params: {}, query: new URLSearchParams(), headers: {}, body, bodyKind: 'json', module: '/print/x', remoteAddress: '127.0.0.1', signal: new AbortController().signal, largeField: null, ...extra } as ApiRequest;
}

function parse(body: unknown, extra: Partial<ApiRequest> = {}) {
  return parsePrintRequest(request(body, extra), () => [files]);
}

function rejects(body: unknown, message: RegExp): void {
  assert.throws(() => parse(body), (err: unknown) => err instanceof AppError && err.code === 'INVALID_REQUEST' && message.test(err.message));
}

test('each contentType maps to its source and format', () => {
  assert.deepEqual(parse({ content: '^XA^XZ', contentType: 'zpl' }).data, Buffer.from('^XA^XZ'));
  assert.equal(parse({ content: Buffer.from('^XA^XZ').toString('base64'), contentType: 'zpl_base64' }).document.format, 'zpl');
  assert.equal(parse({ content: 'JVBERi0=', contentType: 'pdf_base64' }).document.format, 'pdf');
  assert.equal(parse({ content: 'AAEC', contentType: 'raw_base64' }).document.format, 'raw');
  assert.deepEqual(parse({ content: 'http://h/x.pdf', contentType: 'pdf_url' }).document.source, { kind: 'url', url: 'http://h/x.pdf' });
  assert.equal(parse({ content: 'https://h/x', contentType: 'raw_url' }).document.format, 'raw');
});

test('inference when contentType is absent', () => {
  assert.equal(inferContentType('https://x/y'), 'url');
  assert.equal(inferContentType('/data/files/a.zpl'), 'file');
  assert.equal(inferContentType('^XA^FDhi^FS^XZ'), 'zpl');
  assert.equal(inferContentType('JVBERi0xLjQ='), 'base64');
  assert.equal(parse({ content: 'JVBERi0xLjQ=' }).document.format, 'auto');
});

test('defaults and lenient top-level copies/paperSize', () => {
  const s = parse({ content: '^XA^XZ', contentType: 'zpl', copies: 2, paperSize: '4x6' });
  assert.equal(s.title, 'Untitled');
  assert.equal(s.wait, true);
  assert.deepEqual(s.options, { copies: 2, paperSize: '4x6' });
  const both = parse({ content: '^XA^XZ', contentType: 'zpl', copies: 2, options: { copies: 5 } });
  assert.equal(both.options.copies, 5, 'options wins over the top-level field');
  assert.deepEqual(parse({ content: 'JVBERi0=', contentType: 'pdf_base64', options: { dither: true } }).options, { dither: true }, 'dither is an additive option');
  const header = parsePrintRequest(request({ content: '^XA^XZ' }, { headers: { 'idempotency-key': 'h1' } }), () => [files]);
  assert.equal(header.idempotencyKey, 'h1');
});

test('bad base64 and non-http URLs are 400s naming content', () => {
  rejects({ content: 'not base64!!', contentType: 'raw_base64' }, /^content is not valid base64$/);
  rejects({ content: 'A', contentType: 'pdf_base64' }, /^content is not valid base64$/);
  rejects({ content: 'ftp://h/x', contentType: 'pdf_url' }, /^content must be an http or https URL/);
});

test('local files only inside the allowed roots, after symlinks', () => {
  const ok = parse({ content: join(files, 'label.zpl') });
  assert.deepEqual(ok.document.source, { kind: 'file', path: join(files, 'label.zpl') });
  rejects({ content: join(outside, 'secret') }, /^Local path not allowed/);
  rejects({ content: join(files, 'link') }, /^Local path not allowed/);
  rejects({ content: join(files, '..', '..', 'etc', 'passwd') }, /^Local path not allowed/);
});

test('raw bodies take metadata from the query', () => {
  const s = parsePrintRequest(
    request(Buffer.from('%PDF-1.4'), { bodyKind: 'raw', query: new URLSearchParams('title=T&source=erp&idempotencyKey=k&wait=false') }),
    () => [files],
  );
  assert.deepEqual([s.title, s.source, s.idempotencyKey, s.wait, s.document.format], ['T', 'erp', 'k', false, 'auto'], 'octet-stream bodies are recognised by their magic bytes at delivery');
  assert.throws(() => parsePrintRequest(request(Buffer.alloc(0), { bodyKind: 'raw' }), () => [files]), /body is empty/);
});
