// The IPP port holds at most `maxConnections` connections at once, counted with uWS's own filter (src/http/connection-cap.ts).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { ConnectionGate } from '../../src/util/connection-gate';
import { busyAnswer } from '../../src/sharing/ipp-service';
import { startHttpServer, type FixtureServer } from './http-server-fixture';
import { rawExchange } from './raw-http';
import { until } from '../helpers/until';

let server: FixtureServer;
let ippPort: number;

before(async () => {
  server = await startHttpServer({
    ipp: { handle: async () => Buffer.from('ipp-answer'), icon: () => Buffer.from('png'), gate: new ConnectionGate({ total: 64, perAddress: 16 }), busy: busyAnswer, maxConnections: 2 },
  });
  ippPort = await server.server.listenIpp('127.0.0.1', 0);
});

after(() => server.stop());

/** A connection to the IPP port and whether the server has closed it yet. */
function connect(): Promise<{ socket: net.Socket; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let closed = false;
    const socket = net.connect(ippPort, '127.0.0.1', () => resolve({ socket, closed: () => closed }));
    socket.on('error', () => undefined);
    socket.on('close', () => (closed = true));
    socket.on('end', () => (closed = true));
    socket.once('error', reject);
  });
}

test('a connection past the cap is closed as it opens; the ones within it are served, and a place freed is taken again', async () => {
  const first = await connect();
  const second = await connect();
  const third = await connect();
  await until('the third connection is closed by the server', third.closed);
  assert.equal(first.closed(), false);
  assert.equal(second.closed(), false);
  first.socket.write('GET /ipp/icon.png HTTP/1.1\r\nHost: a\r\n\r\n');
  await new Promise<void>((resolve) => first.socket.once('data', () => resolve()));
  first.socket.destroy();
  second.socket.destroy();
  // the cap counts closes too: two new connections are served again
  await until('a connection after the others closed is answered', async () => (await rawExchange(ippPort, 'GET /ipp/icon.png HTTP/1.1\r\nHost: a\r\n\r\n', { answers: 1 }).then((o) => o.responses[0]?.status === 200, () => false)));
  third.socket.destroy();
});
