// A raw port holds its connections within limits (issue 26): a client that keeps the port open after its label gets it
// printed at the idle time-out and its socket closed; connections over the per-address or per-port count, bytes over the
// shared memory budget, and connections while the spool is full are closed without printing.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { RawPort } from '../../src/sharing/raw-port';
import { ConnectionGate } from '../../src/util/connection-gate';
import { MemoryBudget } from '../../src/util/memory-budget';
import { silentLogger } from '../../src/log';
import { until } from '../helpers/until';

const open: RawPort[] = [];
const clients: net.Socket[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.destroy();
  await Promise.all(open.splice(0).map((p) => p.close()));
});

interface Port {
  port: number;
  printed: Array<{ data: string; from: string }>;
  budget: MemoryBudget;
}

async function startPort(options: { budgetBytes?: number; gate?: ConnectionGate; doors?: ConnectionGate; acceptsJobs?: () => boolean; idleMs?: number } = {}): Promise<Port> {
  const printed: Port['printed'] = [];
  const budget = new MemoryBudget(() => options.budgetBytes ?? 64 * 1024 * 1024);
  const raw = new RawPort({
    submit: async (data, from) => void printed.push({ data: data.toString('latin1'), from }),
    answersQueries: () => false,
    ask: async () => null,
    maxBytes: () => 64 * 1024 * 1024,
    budget,
    gate: options.gate ?? new ConnectionGate({ total: 64, perAddress: 16 }),
    doors: options.doors ?? new ConnectionGate({ total: 1000, perAddress: Number.POSITIVE_INFINITY }),
    acceptsJobs: options.acceptsJobs ?? (() => true),
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
  return { port: server, printed, budget };
}

/** A client that connects (from `localAddress`) and records whether the port closed the connection. */
async function connect(port: number, localAddress = '127.0.0.1'): Promise<{ socket: net.Socket; closed: () => boolean }> {
  let closed = false;
  const socket = net.connect({ port, host: '127.0.0.1', localAddress, allowHalfOpen: true });
  clients.push(socket);
  socket.on('error', () => undefined);
  socket.on('end', () => (closed = true));
  socket.on('close', () => (closed = true));
  socket.resume();
  // a port that resets the connection at once may do so before 'connect' is seen
  await new Promise((resolve) => {
    socket.once('connect', resolve);
    socket.once('close', resolve);
  });
  return { socket, closed: () => closed };
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

test('when the keyless doors are at their share of descriptors, a new connection is closed at once, unprinted', async () => {
  const doors = new ConnectionGate({ total: 2, perAddress: Number.POSITIVE_INFINITY });
  const p = await startPort({ gate: new ConnectionGate({ total: 8, perAddress: 8 }), doors, idleMs: 60_000 });
  const a = await connect(p.port);
  await connect(p.port);
  const c = await connect(p.port);
  c.socket.write('^XA^FDrefused^FS^XZ');
  await until('the third is closed', c.closed);
  assert.ok(!a.closed(), 'the first stays');
  a.socket.end('^XA^FDfirst^FS^XZ');
  await until('the first prints', () => p.printed.length === 1);
  assert.equal(p.printed[0].data, '^XA^FDfirst^FS^XZ');
});

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

test('while the spool is full, new connections are closed at once and print nothing', async () => {
  let room = false;
  const p = await startPort({ acceptsJobs: () => room, idleMs: 60_000 });
  const c = await connect(p.port);
  c.socket.write('^XA^FDfull^FS^XZ');
  await until('the connection is closed', c.closed);
  room = true;
  const d = await connect(p.port);
  d.socket.end('^XA^FDroom^FS^XZ');
  await until('with room again, a job prints', () => p.printed.length === 1);
  assert.equal(p.printed[0].data, '^XA^FDroom^FS^XZ');
});
