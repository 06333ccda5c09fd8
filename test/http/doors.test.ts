// Every door of the HTTP server (the API's HTTP and HTTPS listeners, the IPP port) on this runtime, all behind the front:
// request heads capped at 64 KiB with a 431, and requests pipelined behind an asynchronous answer answered, in order.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureTlsPair } from '../../src/device/tls-cert';
import type { Route } from '../../src/http/route';
import { currentRuntime } from '../../src/native/uws-builds';
import { tempDir } from '../helpers/temp-dir';
import { startHttpServer, TEST_KEY, type FixtureServer } from './http-server-fixture';
import { rawExchange } from './raw-http';
import { ConnectionGate } from '../../src/util/connection-gate';
import { busyAnswer } from '../../src/sharing/ipp-service';

const routes: Route[] = [
  { method: 'get', path: '/status', summary: 'status', tag: 't', handler: () => ({ message: 'Status', content: null }) },
  {
    method: 'post',
    path: '/print',
    summary: 'an answer that waits',
    tag: 't',
    handler: async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { message: 'Printed successfully.', content: null };
    },
  },
];

let server: FixtureServer;
const doors: Array<{ name: string; port: number; tls: boolean; path: string; body: string; type: string }> = [];

before(async () => {
  server = await startHttpServer({
    routes,
    ipp: { handle: () => new Promise((resolve) => setImmediate(() => resolve(Buffer.from('ipp-answer')))), icon: () => Buffer.from('png'), gate: new ConnectionGate({ total: 64, perAddress: 16 }), busy: busyAnswer },
  });
  const tls = await ensureTlsPair(tempDir('doors-tls'), 'localhost');
  const api = { path: '/api/v1/print', body: '{}', type: 'application/json' };
  const ipp = { path: '/ipp/print/ABCDEFGH', body: 'ipp-request', type: 'application/ipp' };
  doors.push({ name: 'API HTTP', port: server.port, tls: false, ...api });
  doors.push({ name: 'API HTTPS', port: await server.server.listenTls('127.0.0.1', 0, tls), tls: true, ...api });
  doors.push({ name: 'IPP port', port: await server.server.listenIpp('127.0.0.1', 0), tls: false, ...ipp });
  doors.push({ name: 'IPP on HTTPS', port: doors[1].port, tls: true, ...ipp });
});

after(() => server.stop());

const KEY = `X-API-Key: ${TEST_KEY}\r\n`;
const post = (door: (typeof doors)[number]) => `POST ${door.path} HTTP/1.1\r\nHost: a\r\n${KEY}Content-Type: ${door.type}\r\nContent-Length: ${door.body.length}\r\n\r\n${door.body}`;
const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: a\r\n${KEY}${extra}\r\n`;

test('a POST with an asynchronous answer and a GET pipelined behind it in one write: both answered, in order, on every door', async () => {
  for (const door of doors) {
    const outcome = await rawExchange(door.port, post(door) + get(door.path.startsWith('/ipp') ? '/ipp/icon.png' : '/api/v1/status'), { answers: 2, tls: door.tls });
    assert.deepEqual(outcome.responses.map((r) => r.status), [200, 200], door.name);
    assert.equal(outcome.closed, false, door.name);
  }
});

test('a request head over 64 KiB, whole or still arriving, as the first or a later request: 431 and close, on every door', async () => {
  const big = `X-Big: ${'b'.repeat(70_000)}\r\n`;
  for (const door of doors) {
    const icon = door.path.startsWith('/ipp') ? '/ipp/icon.png' : '/api/v1/status';
    for (const [what, bytes, statuses] of [
      ['whole', get(icon, big), [431]],
      ['arriving', get(icon, big).slice(0, 69_000), [431]],
      ['no line end', `GET /${'a'.repeat(70_000)}`, [431]],
      ['after a request', get(icon) + get(icon, big), [200, 431]],
    ] as const) {
      const outcome = await rawExchange(door.port, bytes, { answers: statuses.length, close: true, tls: door.tls });
      assert.deepEqual(outcome.responses.map((r) => r.status), statuses, `${door.name}, ${what}`);
    }
  }
});

test('a head under the limit is served on every door (60 KB; 3 KB on uWS 20.57, which takes heads up to 4 KiB)', async () => {
  const size = currentRuntime().abi === '137' ? 3000 : 60_000;
  for (const door of doors) {
    const icon = door.path.startsWith('/ipp') ? '/ipp/icon.png' : '/api/v1/status';
    const outcome = await rawExchange(door.port, get(icon, `X-Big: ${'b'.repeat(size)}\r\n`), { answers: 1, tls: door.tls });
    assert.equal(outcome.responses[0].status, 200, door.name);
  }
});
