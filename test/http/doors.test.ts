// Every door of the HTTP server (the API's HTTP and HTTPS listeners, the IPP port), uWS alone on each: request heads capped
// at uWS's 4 KiB with a 431 and close, and a request pipelined behind an asynchronous answer either answered in order or
// the connection closed (decided in issue 35), never a hang.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ensureTlsPair } from '../../src/device/tls-cert';
import type { Route } from '../../src/http/route';
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

test('a POST with an asynchronous answer and a GET pipelined behind it in one write: answered in order, or the connection closes, on every door', async () => {
  for (const door of doors) {
    const outcome = await rawExchange(door.port, post(door) + get(door.path.startsWith('/ipp') ? '/ipp/icon.png' : '/api/v1/status'), { answers: 2, tls: door.tls });
    const statuses = outcome.responses.map((r) => r.status);
    assert.deepEqual(statuses, [200, 200].slice(0, statuses.length), door.name);
    assert.ok(statuses.length === 2 || outcome.closed, `${door.name}: neither answered nor closed`);
  }
});

test('a request head over 4 KiB, whole or still arriving, as the first or a later request: 431 and close, on every door', async () => {
  const big = `X-Big: ${'b'.repeat(70_000)}\r\n`;
  for (const door of doors) {
    const icon = door.path.startsWith('/ipp') ? '/ipp/icon.png' : '/api/v1/status';
    for (const [what, bytes] of [
      ['whole', get(icon, big)],
      ['arriving', get(icon, big).slice(0, 69_000)],
      ['no line end', `GET /${'a'.repeat(70_000)}`],
      ['after a request', get(icon) + get(icon, big)],
    ] as const) {
      const outcome = await rawExchange(door.port, bytes, { answers: 2, close: true, tls: door.tls });
      const statuses = outcome.responses.map((r) => r.status);
      // a request in the same packet before the long head may lose its answer: uWS refuses the packet
      assert.equal(statuses.at(-1), 431, `${door.name}, ${what}: ${JSON.stringify(statuses)}`);
      assert.ok(statuses.slice(0, -1).every((s) => s === 200), `${door.name}, ${what}`);
    }
  }
});

test('a head under the limit (3 KB) is served on every door', async () => {
  for (const door of doors) {
    const icon = door.path.startsWith('/ipp') ? '/ipp/icon.png' : '/api/v1/status';
    const outcome = await rawExchange(door.port, get(icon, `X-Big: ${'b'.repeat(3000)}\r\n`), { answers: 1, tls: door.tls });
    assert.equal(outcome.responses[0].status, 200, door.name);
  }
});
