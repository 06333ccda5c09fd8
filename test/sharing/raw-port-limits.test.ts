// A raw port holds its connections within limits (issue 26): a client that keeps the port open after its label gets it
// printed at the idle time-out and its socket closed; connections over the per-address or per-port count end older jobs
// (printed); bytes over the shared memory budget are closed without printing; a job that finds the spooler full waits,
// its connection open, until there is room (closed once stored), and is reset only after its wait or when the doors need
// its descriptor.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { AppError } from '../../src/errors';
import { RawPort } from '../../src/sharing/raw-port';
import { SpoolerLine } from '../../src/sharing/spooler-line';
import { ConnectionGate } from '../../src/util/connection-gate';
import { MemoryBudget } from '../../src/util/memory-budget';
import { silentLogger } from '../../src/log';
import { until } from '../helpers/until';

const open: RawPort[] = [];
const lines: SpoolerLine[] = [];
const clients: net.Socket[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy();
  for (const line of lines.splice(0)) line.close();
  await Promise.all(open.splice(0).map((p) => p.close()));
});

interface Port {
  port: number;
  printed: Array<{ data: string; from: string }>;
  budget: MemoryBudget;
  /** The line of jobs waiting for room in the (fake) spooler. */
  line: SpoolerLine;
}

interface PortOptions {
  budgetBytes?: number;
  gate?: ConnectionGate;
  /** The doors' total (descriptor share); the oldest job waiting in the line is reset when they are full. */
  doorsTotal?: number;
  /** Whether the fake spooler takes a job now (as the daemon's: job count and spool bytes); a refusal is QUEUE_FULL. */
  room?: () => boolean;
  waitMs?: number;
  idleMs?: number;
}

async function startPort(options: PortOptions = {}): Promise<Port> {
  const printed: Port['printed'] = [];
  const budget = new MemoryBudget(() => options.budgetBytes ?? 64 * 1024 * 1024);
  const room = options.room ?? (() => true);
  const line = new SpoolerLine({ waitMs: options.waitMs ?? 60_000, retryMs: 10, hasRoom: room });
  lines.push(line);
  const raw = new RawPort({
    submit: (data, from, connection) =>
      line.add({
        store: async () => {
          if (!room()) throw new AppError('QUEUE_FULL', 'the spooler is full');
          printed.push({ data: data.toString('latin1'), from });
        },
        reclaim: connection.reclaim,
      }),
    hostQueries: () => 'remove',
    ask: async () => null,
    maxBytes: () => 64 * 1024 * 1024,
    budget,
    gate: options.gate ?? new ConnectionGate({ total: 64, perAddress: 16 }),
    doors: new ConnectionGate({ total: options.doorsTotal ?? 1000, perAddress: Number.POSITIVE_INFINITY }, null, () => line.reclaim()),
    idleMs: options.idleMs ?? 300,
    afterLarge: () => undefined,
    logger: silentLogger,
  });
  open.push(raw);
  const server = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  await raw.listen('127.0.0.1', server);
  return { port: server, printed, budget, line };
}

/** A client that connects (from `localAddress`) and records whether the port closed the connection, and whether by a reset. */
async function connect(port: number, localAddress = '127.0.0.1'): Promise<{ socket: net.Socket; closed: () => boolean; reset: () => boolean }> {
  let closed = false;
  let reset = false;
  const socket = net.connect({ port, host: '127.0.0.1', localAddress, allowHalfOpen: true });
  clients.push(socket);
  socket.on('error', (err: NodeJS.ErrnoException) => (reset ||= err.code === 'ECONNRESET'));
  socket.on('end', () => (closed = true));
  socket.on('close', () => (closed = true));
  socket.resume();
  // a port that resets the connection at once may do so before 'connect' is seen
  await new Promise((resolve) => {
    socket.once('connect', resolve);
    socket.once('close', resolve);
  });
  return { socket, closed: () => closed, reset: () => reset };
}

test('a client that sends its label and keeps the port open gets it printed at the idle time-out, and the port closes the connection', async () => {
  const p = await startPort({ idleMs: 300 });
  const label = '^XA^FO20,20^FDkept open^FS^XZ';
  const c = await connect(p.port);
  c.socket.write(label);
  await until('the label printed without the client closing', () => p.printed.length === 1);
  assert.equal(p.printed[0].data, label);
  await until('the port closed the connection', c.closed);
  assert.equal(p.budget.held(), 0, 'the bytes went back to the budget');
});

test('at the per-address count, a new connection ends the job of that address\'s least recently active one: printed, closed', async () => {
  const p = await startPort({ gate: new ConnectionGate({ total: 8, perAddress: 2 }), idleMs: 60_000 });
  const first = await connect(p.port);
  first.socket.write('^XA^FDfirst^FS^XZ');
  await until('the first holds its bytes', () => p.budget.held() === 17);
  const second = await connect(p.port);
  second.socket.write('^XA^FDsecond^FS^XZ');
  await until('the second holds its bytes', () => p.budget.held() === 17 + 18);
  first.socket.write('^XA^FDfirst-b^FS^XZ');
  await until('the first is now the more recently active', () => p.budget.held() === 17 + 18 + 19);
  const third = await connect(p.port);
  third.socket.write('^XA^FDthird^FS^XZ');
  await until('the second (least recently active) printed', () => p.printed.some((j) => j.data === '^XA^FDsecond^FS^XZ'));
  await until('and was closed', second.closed);
  assert.ok(!first.closed() && !third.closed(), 'the first and third stay open');
  const other = await connect(p.port, '127.0.0.2');
  other.socket.end('^XA^FDother^FS^XZ');
  await until('another address prints', () => p.printed.some((j) => j.data.includes('other')));
  assert.equal(p.printed.find((j) => j.data.includes('other'))?.from, '127.0.0.2');
  third.socket.end();
  await until('the third prints at its close', () => p.printed.some((j) => j.data === '^XA^FDthird^FS^XZ'));
});

test('at the port\'s total, a new connection ends a job of the busiest address; the others stay', async () => {
  const p = await startPort({ gate: new ConnectionGate({ total: 3, perAddress: 16 }), idleMs: 60_000 });
  const busy1 = await connect(p.port, '127.0.0.2');
  busy1.socket.write('^XA^FDbusy-1^FS^XZ');
  await until('the first holds its bytes', () => p.budget.held() === 18);
  const busy2 = await connect(p.port, '127.0.0.2');
  busy2.socket.write('^XA^FDbusy-2^FS^XZ');
  const quiet = await connect(p.port, '127.0.0.3');
  await until('the second holds its bytes', () => p.budget.held() === 36);
  await connect(p.port, '127.0.0.4');
  await until('the busiest address\'s oldest printed', () => p.printed.some((j) => j.data === '^XA^FDbusy-1^FS^XZ'));
  await until('and was closed', busy1.closed);
  assert.ok(!quiet.closed() && !busy2.closed(), 'the other connections stay');
});

test('when the keyless doors are at their share of descriptors and no job waits, a new connection is reset at once, unprinted', async () => {
  const p = await startPort({ gate: new ConnectionGate({ total: 8, perAddress: 8 }), doorsTotal: 2, idleMs: 60_000 });
  const a = await connect(p.port);
  await connect(p.port);
  const c = await connect(p.port);
  c.socket.write('^XA^FDrefused^FS^XZ');
  await until('the third is closed', c.closed);
  assert.ok(c.reset(), 'by a reset');
  assert.ok(!a.closed(), 'the first stays');
  a.socket.end('^XA^FDfirst^FS^XZ');
  await until('the first prints', () => p.printed.length === 1);
  assert.equal(p.printed[0].data, '^XA^FDfirst^FS^XZ');
})

test('bytes over the shared memory budget close the connection unprinted; the one within it prints', async () => {
  const MiB = 1024 * 1024;
  const p = await startPort({ budgetBytes: MiB, idleMs: 60_000 });
  const big = await connect(p.port);
  big.socket.write(Buffer.alloc(800 * 1024, 0x41));
  await until('the first connection holds its bytes', () => p.budget.held() === 800 * 1024);
  const over = await connect(p.port, '127.0.0.2');
  over.socket.write(Buffer.alloc(400 * 1024, 0x42));
  await until('the connection over the budget is closed', over.closed);
  assert.ok(p.budget.held() <= MiB, `held ${p.budget.held()} bytes, at most the budget`);
  big.socket.end();
  await until('the first prints', () => p.printed.length === 1);
  assert.equal(p.printed[0].data.length, 800 * 1024);
  assert.ok(p.printed.every((j) => !j.data.includes('B')), 'nothing of the refused connection printed');
  await until('every byte given back', () => p.budget.held() === 0);
});

test('a job that finds the spooler full waits with its connection open; once there is room it prints and the port closes the connection', async () => {
  let room = false;
  const p = await startPort({ room: () => room, idleMs: 60_000 });
  const c = await connect(p.port);
  c.socket.end('^XA^FDwaits^FS^XZ');
  await until('the job waits in the line', () => p.line.size() === 1);
  assert.ok(!c.closed(), 'the connection stays open while the job waits');
  assert.equal(p.printed.length, 0);
  room = true;
  await until('with room, the job prints', () => p.printed.length === 1);
  assert.equal(p.printed[0].data, '^XA^FDwaits^FS^XZ');
  await until('the port closed the connection', c.closed);
  assert.ok(!c.reset(), 'closed, not reset: the job was taken');
  await until('every byte given back', () => p.budget.held() === 0);
});

test('half-open connections from one address past its count all wait while the spooler is full, then each prints once, in order', async () => {
  let room = false;
  const p = await startPort({ gate: new ConnectionGate({ total: 8, perAddress: 2 }), room: () => room, idleMs: 300 });
  const clientsOfFlood: Array<Awaited<ReturnType<typeof connect>>> = [];
  for (let i = 0; i < 6; i += 1) {
    const c = await connect(p.port);
    c.socket.write(`^XA^FDflood-${i}^FS^XZ`);
    await until(`connection ${i} holds its bytes`, () => p.budget.held() >= 19 * (i + 1));
    clientsOfFlood.push(c);
  }
  await until('every job waits in the line (the last two after their idle time)', () => p.line.size() === 6);
  assert.ok(clientsOfFlood.every((c) => !c.closed()), 'every connection stays open');
  room = true;
  await until('every job printed', () => p.printed.length === 6);
  assert.deepEqual(p.printed.map((j) => j.data), [0, 1, 2, 3, 4, 5].map((i) => `^XA^FDflood-${i}^FS^XZ`), 'each once, in order of arrival');
  await until('every connection closed', () => clientsOfFlood.every((c) => c.closed()));
  assert.ok(clientsOfFlood.every((c) => !c.reset()), 'none reset');
});

test('when the doors need a descriptor, the connection of the oldest waiting job is reset (its job given up), never one still sending', async () => {
  let room = false;
  const p = await startPort({ room: () => room, doorsTotal: 3, idleMs: 60_000 });
  const oldest = await connect(p.port);
  oldest.socket.end('^XA^FDoldest^FS^XZ');
  await until('the first job waits', () => p.line.size() === 1);
  const second = await connect(p.port);
  second.socket.end('^XA^FDsecond^FS^XZ');
  await until('the second job waits', () => p.line.size() === 2);
  const sending = await connect(p.port, '127.0.0.2');
  sending.socket.write('^XA^FDsending');
  await until('the third holds its bytes', () => p.budget.held() === '^XA^FDoldest^FS^XZ^XA^FDsecond^FS^XZ^XA^FDsending'.length);
  const late = await connect(p.port, '127.0.0.3');
  await until('the oldest waiting connection is reset', oldest.closed);
  assert.ok(oldest.reset(), 'by a reset: its job was not taken');
  assert.equal(p.line.size(), 1, 'its job left the line');
  assert.ok(!second.closed() && !sending.closed() && !late.closed(), 'the others stay open');
  sending.socket.end('^FS^XZ');
  late.socket.end('^XA^FDlate^FS^XZ');
  await until('every job but the oldest waits', () => p.line.size() === 3);
  room = true;
  await until('they print', () => p.printed.length === 3);
  assert.deepEqual(p.printed.map((j) => j.data), ['^XA^FDsecond^FS^XZ', '^XA^FDsending^FS^XZ', '^XA^FDlate^FS^XZ']);
});

test('a job that waits for room longer than its bound is given up: its connection is reset, nothing printed', async () => {
  const p = await startPort({ room: () => false, waitMs: 50, idleMs: 60_000 });
  const c = await connect(p.port);
  c.socket.end('^XA^FDtoo late^FS^XZ');
  await until('the connection is reset', c.closed);
  assert.ok(c.reset());
  assert.equal(p.printed.length, 0);
  assert.equal(p.line.size(), 0);
  await until('every byte given back', () => p.budget.held() === 0);
});
