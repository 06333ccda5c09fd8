// The transport-independent dispatcher: route matching (literal segments first), query, body validation naming the
// field, error codes mapped to statuses, and the envelope, as HTTP answers them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { ApiDispatcher } from '../../src/http/api-dispatch';
import { AppError } from '../../src/errors';
import { silentLogger } from '../../src/log';
import type { Route } from '../../src/http/route';

const routes: Route[] = [
  { method: 'get', path: '/jobs/{jobId}', tag: 't', summary: 's', handler: (req) => ({ message: 'job', content: { id: req.params.jobId, q: req.query.get('q') } }) },
  { method: 'get', path: '/jobs/latest', tag: 't', summary: 's', handler: () => ({ message: 'latest', content: 'latest' }) },
  { method: 'post', path: '/things', tag: 't', summary: 's', body: Type.Object({ n: Type.Integer({ minimum: 1 }) }), handler: (req) => ({ status: 201, message: 'made', content: req.body }) },
  { method: 'get', path: '/fails', tag: 't', summary: 's', handler: () => { throw new AppError('PRINTER_NOT_FOUND', 'no such printer'); } },
  { method: 'get', path: '/png', tag: 't', summary: 's', handler: () => ({ bytes: new Uint8Array([1]), contentType: 'image/png', message: '' }) },
];
const dispatcher = new ApiDispatcher(routes, silentLogger);
const input = (body?: unknown) => ({ headers: {}, body, remoteAddress: 'test', signal: new AbortController().signal });

test('matches a parameter (percent-decoded) and the query; a literal segment wins over a parameter', async () => {
  const call = dispatcher.resolve('GET', '/jobs/a%2Fb?q=1');
  assert.deepEqual(call.params, { jobId: 'a/b' });
  assert.deepEqual(await dispatcher.execute(call, input()), { status: 200, body: { status: 'success', statusCode: 200, result: { module: '/jobs/a%2Fb', message: 'job', content: { id: 'a/b', q: '1' } } } });
  assert.equal(dispatcher.resolve('GET', '/jobs/latest').route.path, '/jobs/latest');
});

test('no route (or the wrong method) is NOT_FOUND, as uWS answers 404', () => {
  assert.throws(() => dispatcher.resolve('GET', '/nothing'), { code: 'NOT_FOUND' });
  assert.throws(() => dispatcher.resolve('DELETE', '/things'), { code: 'NOT_FOUND' });
});

test('the body is validated with the route schema: 400 naming the field; a missing body too', async () => {
  const call = dispatcher.resolve('POST', '/things');
  assert.equal((await dispatcher.execute(call, input({ n: 2 }))).status, 201);
  const bad = await dispatcher.execute(call, input({ n: 0 }));
  assert.equal(bad.status, 400);
  assert.match((bad.body as any).result.content.message, /^n must be an integer >= 1/);
  assert.equal((await dispatcher.execute(call, input())).status, 400);
});

test('an AppError is answered with its status and envelope; a non-JSON answer is 404 here', async () => {
  const failed = await dispatcher.execute(dispatcher.resolve('GET', '/fails'), input());
  assert.deepEqual(failed, { status: 404, body: { status: 'error', statusCode: 404, result: { module: '/fails', message: 'Printer not found', content: { message: 'no such printer' } } } });
  assert.equal((await dispatcher.execute(dispatcher.resolve('GET', '/png'), input())).status, 404);
});
