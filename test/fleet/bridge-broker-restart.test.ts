// The broker is killed (SIGKILL) and restarted in the middle of 2,000 print requests sent by the fleet client with
// idempotency keys and retries: every label is printed exactly once.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Broker } from '../fixtures/mosquitto-broker';
import type { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import type { DaemonHandle } from '../helpers/daemon-process';
import { until } from '../helpers/until';
import type { FleetClient } from '../../src/fleet/client';
import { printedMarkers, startClientBench, stopClientBench } from './bridge-harness';

const DEVICE = 'dev-r';
const REQUESTS = 2000;
const IN_FLIGHT = 100;
let broker: Broker;
let emulator: ZplPrinterEmulator;
let daemon: DaemonHandle;
let fleet: FleetClient;
let printer: string;

before(async () => {
  ({ broker, emulator, daemon, printer, fleet } = await startClientBench(DEVICE));
});
after(() => stopClientBench({ fleet, daemon, emulator, broker }));

test('broker killed and restarted during 2,000 requests: every label printed exactly once', async () => {
  const statuses = new Map<number, number>();
  let answered = 0;
  let restarted = false;
  let next = 0;
  const send = async (i: number) => {
    const answer = await fleet.request(DEVICE, {
      method: 'POST', path: `/print/${printer}`, id: `req-${i}`,
      headers: { 'Idempotency-Key': `label-${i}` },
      body: { contentType: 'zpl', content: `^XA^FDlabel-${i}^FS^XZ` },
    }, { deadlineMs: 180_000, retries: 12 });
    statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    answered += 1;
  };
  const worker = async () => {
    while (next < REQUESTS) {
      const i = next;
      next += 1;
      await send(i);
    }
  };
  const workers = Array.from({ length: IN_FLIGHT }, worker);
  await until('a quarter answered', () => answered >= REQUESTS / 4, 120_000);
  await broker.kill();
  const answeredAtKill = answered;
  await broker.restart();
  restarted = true;
  await Promise.all(workers);
  const printed = printedMarkers(emulator);
  const counts = { sent: REQUESTS, answered, answeredAtKill, statuses: Object.fromEntries(statuses), distinctPrinted: printed.size, printedTwice: [...printed.values()].filter((n) => n > 1).length };
  console.log(`counts ${JSON.stringify(counts)}`);
  assert.ok(restarted);
  assert.equal(answered, REQUESTS);
  assert.deepEqual(Object.fromEntries(statuses), { 200: REQUESTS });
  for (let i = 0; i < REQUESTS; i += 1) assert.equal(printed.get(`label-${i}`), 1, `label-${i} printed ${printed.get(`label-${i}`) ?? 0} times`);
});
