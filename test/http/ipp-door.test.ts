// The IPP door of the HTTP server (/ipp/ on the API listener and on the IPP port): printing clients on the LAN only,
// never a web page: no CORS answer, no preflight, and no operation run for a browser's request.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHttpServer, type FixtureServer } from './http-server-fixture';
import { rawExchange, type RawResponse } from './raw-http';
import { ConnectionGate } from '../../src/util/connection-gate';
import { busyAnswer } from '../../src/sharing/ipp-service';

let server: FixtureServer;
let ippPort = 0;
const calls: string[] = [];
const IPP_ANSWER = Buffer.from([0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x03]);

before(async () => {
  server = await startHttpServer({
    ipp: {
      handle: (printerId) => {
        calls.push(printerId);
        return Promise.resolve(IPP_ANSWER);
      },
      icon: () => Buffer.from('png'),
      gate: new ConnectionGate({ total: 64, perAddress: 16 }),
      busy: busyAnswer,
    },
  });
  ippPort = await server.server.listenIpp('127.0.0.1', 0);
});

after(() => server.stop());

const doors = () => [['API listener', server.port], ['IPP port', ippPort]] as const;
const corsHeaders = (r: RawResponse) => r.headers.filter(([name]) => name.startsWith('access-control-'));
const post = (extra: string, type = 'application/ipp', body = 'ipp-request') =>
  `POST /ipp/print/ABCDEFGH HTTP/1.1\r\nHost: a\r\n${extra}Content-Type: ${type}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

test('a CORS preflight on /ipp/print/<id> (with the private-network ask): no Access-Control-* headers, not a 204', async () => {
  for (const [door, port] of doors()) {
    const preflight = `OPTIONS /ipp/print/ABCDEFGH HTTP/1.1\r\nHost: a\r\nOrigin: https://evil.example\r\nAccess-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: content-type\r\nAccess-Control-Request-Private-Network: true\r\n\r\n`;
    const [answer] = (await rawExchange(port, preflight, { answers: 1 })).responses;
    assert.deepEqual(corsHeaders(answer), [], door);
    assert.notEqual(answer.status, 204, door);
  }
});

test('an IPP request carrying Origin (sent by a web page): 403 without CORS headers, and no operation runs', async () => {
  for (const [door, port] of doors()) {
    const before = calls.length;
    for (const origin of ['https://evil.example', 'null']) {
      const [answer] = (await rawExchange(port, post(`Origin: ${origin}\r\n`), { answers: 1 })).responses;
      assert.equal(answer.status, 403, door);
      assert.deepEqual(corsHeaders(answer), [], door);
    }
    assert.equal(calls.length, before, `${door}: nothing ran`);
  }
});

test('a simple request a page may send without preflight (text/plain, form types): 415, and no operation runs', async () => {
  for (const [door, port] of doors()) {
    const before = calls.length;
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const [answer] = (await rawExchange(port, post('', type), { answers: 1 })).responses;
      assert.equal(answer.status, 415, `${door} ${type}`);
    }
    assert.equal(calls.length, before, `${door}: nothing ran`);
  }
});

test('an IPP request from a printing client (application/ipp, no Origin): answered as application/ipp without CORS headers', async () => {
  for (const [door, port] of doors()) {
    const before = calls.length;
    const [answer] = (await rawExchange(port, post(''), { answers: 1 })).responses;
    assert.equal(answer.status, 200, door);
    assert.equal(answer.headers.find(([n]) => n === 'content-type')?.[1], 'application/ipp');
    assert.deepEqual(corsHeaders(answer), []);
    assert.equal(calls.length, before + 1);
  }
});

test('the printer icon read with an Origin: no Access-Control-Allow-Origin (a page cannot read it by script)', async () => {
  for (const [door, port] of doors()) {
    const [answer] = (await rawExchange(port, `GET /ipp/icon.png HTTP/1.1\r\nHost: a\r\nOrigin: https://evil.example\r\n\r\n`, { answers: 1 })).responses;
    assert.equal(answer.status, 200, door);
    assert.deepEqual(corsHeaders(answer), [], door);
  }
});
