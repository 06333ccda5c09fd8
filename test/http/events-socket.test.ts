// The /api/v1/events WebSocket on the real uWS server with its own bus: hello, since, reset, filters, slow readers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { EventBus } from '../../src/events/event-bus';
import { EventRing } from '../../src/events/event-ring';
import { eventsSocket } from '../../src/http/routes/events';
import type { SocketRoute } from '../../src/http/socket-route';
import { until } from '../helpers/until';
import { silentLogger } from '../../src/log';
import { startHttpServer, TEST_KEY, type FixtureServer } from './http-server-fixture';
import { nextJson, openWs, type TestSocket } from './ws-test-client';

const BOOT = '6f1c2a52-0000-4000-8000-000000000001';
const bus = new EventBus(silentLogger);
const ring = new EventRing(bus, 50);
let server: FixtureServer;

const closeCodes: number[] = [];

/** The events route, with the close code of every session recorded (the client may not get a close frame it cannot read). */
function recordingCloses(route: SocketRoute): SocketRoute {
  return {
    ...route,
    open(socket, request) {
      const session = route.open(socket, request);
      return { ...session, closed: (code, reason) => (closeCodes.push(code), session.closed?.(code, reason)) };
    },
  };
}

before(async () => {
  server = await startHttpServer({ sockets: [recordingCloses(eventsSocket(ring, BOOT))], socketSettings: { authTimeoutMs: 2000, maxBufferedBytes: 256 * 1024 } });
});
after(() => server.stop());

const open = (path = '/api/v1/events', headers: Record<string, string> = { 'X-API-Key': TEST_KEY }): Promise<TestSocket> => openWs(server.port, path, headers);
const json = (ws: TestSocket): Promise<any> => nextJson(ws);

const settingsEvent = (name: string) => bus.emit('device.settings', { changed: [name] });

test('header auth: hello with the bootId and the last id, then live events as the event object', async () => {
  settingsEvent('before');
  const ws = await open();
  assert.deepEqual(await json(ws), { type: 'hello', bootId: BOOT, lastId: ring.lastId });
  const sent = settingsEvent('alias');
  assert.deepEqual(await json(ws), { id: sent.id, type: 'device.settings', time: sent.time, data: { changed: ['alias'] } });
  ws.close(1000);
});

test('first-message auth with since: the missed events exactly, then live ones, no gap and no duplicate', async () => {
  const from = ring.lastId;
  for (let i = 0; i < 30; i += 1) settingsEvent(`missed-${i}`);
  const ws = await open('/api/v1/events', {});
  ws.sendText(JSON.stringify({ type: 'auth', apiKey: TEST_KEY, since: from }));
  assert.equal((await json(ws)).type, 'hello');
  const ids: number[] = [];
  for (let i = 0; i < 30; i += 1) ids.push((await json(ws)).id);
  assert.deepEqual(ids, Array.from({ length: 30 }, (_, i) => from + 1 + i));
  const live = settingsEvent('live');
  assert.equal((await json(ws)).id, live.id);
  ws.close(1000);
});

test('since older than the ring, a future id, or another run\'s bootId: a reset first, then live events', async () => {
  for (let i = 0; i < 60; i += 1) settingsEvent(`fill-${i}`);
  for (const path of ['/api/v1/events?since=1', `/api/v1/events?since=${ring.lastId + 5}`, `/api/v1/events?since=${ring.lastId}&bootId=another-run`]) {
    const ws = await open(path);
    assert.equal((await json(ws)).type, 'hello');
    assert.deepEqual(await json(ws), { type: 'reset' }, path);
    const live = settingsEvent('after-reset');
    assert.equal((await json(ws)).id, live.id, path);
    ws.close(1000);
  }
});

test('subscribe filters by type glob and printer; events about no printer pass a printer filter; bad filters get an error message', async () => {
  const ws = await open();
  await json(ws);
  ws.sendText(JSON.stringify({ type: 'subscribe', types: ['job.*', 'device.settings'], printers: ['tcp_a_9100'] }));
  assert.deepEqual(await json(ws), { type: 'subscribed', types: ['job.*', 'device.settings'], printers: ['tcp_a_9100'] });
  bus.emit('job.state', { jobId: '1', printer: 'tcp_b_9100', state: 'queued' });
  bus.emit('printer.status', { path: 'tcp_a_9100', status: 'ready', statusReasons: [] });
  const wanted = bus.emit('job.state', { jobId: '2', printer: 'tcp_a_9100', state: 'queued' });
  const settings = settingsEvent('tags');
  assert.equal((await json(ws)).id, wanted.id);
  assert.equal((await json(ws)).id, settings.id);
  ws.sendText(JSON.stringify({ type: 'subscribe', types: ['jobs.*'] }));
  assert.deepEqual(await json(ws), { type: 'error', message: 'types: jobs.* matches no event type' });
  ws.sendText('not json');
  assert.deepEqual(await json(ws), { type: 'error', message: 'messages must be JSON' });
  ws.close(1000);
});

test('a replay too large for the slow-reader bound stops with a reset instead of closing the client; live events follow', async () => {
  const from = ring.lastId;
  const big = 'r'.repeat(200 * 1024);
  for (let i = 0; i < 40; i += 1) bus.emit('printer.updated', { path: 'tcp_r_9100', model: big });
  const closedBefore = closeCodes.length;
  const ws = await open(`/api/v1/events?since=${from}`);
  assert.equal((await json(ws)).type, 'hello');
  const replayed: number[] = [];
  let message = await json(ws);
  while (message.type === 'printer.updated') {
    replayed.push(message.id);
    message = await json(ws);
  }
  assert.deepEqual(message, { type: 'reset' });
  assert.ok(replayed.length < 40, `${replayed.length} replayed before the reset`);
  assert.deepEqual(replayed, Array.from({ length: replayed.length }, (_, i) => from + 1 + i), 'what was replayed came in order');
  const live = settingsEvent('after-long-replay');
  assert.equal((await json(ws)).id, live.id);
  assert.ok(!closeCodes.slice(closedBefore).includes(1013), `closes since: ${closeCodes.slice(closedBefore).join(', ')}`);
  ws.close(1000);
});

test('types and printers in the URL filter the replay too', async () => {
  const from = ring.lastId;
  bus.emit('job.state', { jobId: 'x', printer: 'tcp_b_9100', state: 'queued' });
  const wanted = bus.emit('job.state', { jobId: 'y', printer: 'tcp_a_9100', state: 'queued' });
  settingsEvent('not-a-job');
  const ws = await open(`/api/v1/events?since=${from}&types=job.*&printers=tcp_a_9100`);
  assert.equal((await json(ws)).type, 'hello');
  assert.equal((await json(ws)).id, wanted.id);
  const next = bus.emit('job.state', { jobId: 'z', printer: 'tcp_a_9100', state: 'queued' });
  assert.equal((await json(ws)).id, next.id);
  ws.close(1000);
});

test('a client that never reads is closed with 1013 while another keeps getting every event', async () => {
  const slow = await open();
  await json(slow);
  slow.raw.pause();
  const fast = await open();
  await json(fast);
  const closedBefore = closeCodes.length;
  const big = 'x'.repeat(64 * 1024);
  const ids: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const sent = bus.emit('printer.updated', { path: 'tcp_a_9100', model: big });
    const got = await json(fast);
    assert.equal(got.id, sent.id);
    ids.push(got.id);
  }
  assert.equal(ids.length, 200);
  await until('the slow reader was closed', () => closeCodes.length > closedBefore);
  assert.deepEqual(closeCodes.slice(closedBefore), [1013]);
  slow.raw.resume();
  assert.ok([1013, 1006].includes((await slow.closed()).code), 'the connection ends (its close frame may sit behind unread data)');
  fast.close(1000);
});
