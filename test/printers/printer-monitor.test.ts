// The background monitor: probes only while wanted, once per interval per printer (5 s, or down to 2 s when a client
// asks), never during a transfer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PrinterMonitor } from '../../src/printers/printer-monitor';
import { FASTEST_STATUS_INTERVAL_MS, StatusDemand, takesPrinterStatus } from '../../src/events/status-demand';
import { silentLogger } from '../../src/log';

function monitorWith(demand: StatusDemand, busy = new Set<string>()) {
  let clock = 0;
  const probes: string[] = [];
  const monitor = new PrinterMonitor({
    wanted: () => demand.wanted(),
    printers: () => ['a', 'b'],
    probe: async (path) => void probes.push(path),
    transferring: (path) => busy.has(path),
    intervalMs: () => demand.intervalMs(),
    every: () => () => undefined,
    now: () => clock,
    logger: silentLogger,
  });
  return { monitor, probes, advance: (ms: number) => (clock += ms) };
}

test('with nobody listening, ticks probe nothing', async () => {
  const { monitor, probes, advance } = monitorWith(new StatusDemand(5000));
  for (let i = 0; i < 100; i += 1) {
    monitor.tick();
    advance(1000);
  }
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(probes, []);
});

test('a claim starts probing each printer at most once per interval; its release stops it', async () => {
  const demand = new StatusDemand(5000);
  const { monitor, probes, advance } = monitorWith(demand);
  const release = demand.acquire();
  for (let i = 0; i < 11; i += 1) {
    monitor.tick();
    await new Promise((resolve) => setImmediate(resolve));
    advance(1000);
  }
  assert.deepEqual(probes, ['a', 'b', 'a', 'b', 'a', 'b'], 'at 0 s, 5 s and 10 s');
  release();
  release();
  assert.equal(demand.wanted(), false, 'a release counts once');
  advance(10_000);
  monitor.tick();
  assert.equal(probes.length, 6);
});

test('a printer with a job on the wire is skipped until the transfer ends', async () => {
  const demand = new StatusDemand(5000, [() => true]);
  const busy = new Set(['a']);
  const { monitor, probes, advance } = monitorWith(demand, busy);
  monitor.tick();
  assert.deepEqual(probes, ['b']);
  busy.clear();
  advance(1000);
  monitor.tick();
  assert.deepEqual(probes, ['b', 'a']);
});

/** Ticks once a second for `seconds` (probes settle between ticks) and returns the probes of printer 'a'. */
async function probesOfA(monitor: PrinterMonitor, probes: string[], advance: (ms: number) => number, seconds: number): Promise<number> {
  for (let i = 0; i < seconds; i += 1) {
    monitor.tick();
    await new Promise((resolve) => setImmediate(resolve));
    advance(1000);
  }
  return probes.filter((p) => p === 'a').length;
}

test('a client asking for status every 2 s gets it that often, and the default returns when it leaves', async () => {
  const demand = new StatusDemand(5000);
  const { monitor, probes, advance } = monitorWith(demand);
  const plain = demand.acquire();
  const fast = demand.acquire(2000);
  assert.equal(demand.intervalMs(), 2000);
  assert.equal(await probesOfA(monitor, probes, advance, 10), 5, 'at 0, 2, 4, 6 and 8 s');
  fast();
  assert.equal(demand.intervalMs(), 5000, 'the other client asked for nothing: the default');
  probes.length = 0;
  assert.equal(await probesOfA(monitor, probes, advance, 10), 2, 'every 5 s again');
  plain();
});

test('no client makes a printer be probed more often than every 2 s, nor less often than the default', () => {
  const demand = new StatusDemand(5000);
  const greedy = demand.acquire(10);
  assert.equal(demand.intervalMs(), FASTEST_STATUS_INTERVAL_MS);
  greedy();
  const lazy = demand.acquire(60_000);
  assert.equal(demand.intervalMs(), 5000, 'a slower wish does not slow the others down');
  lazy();
  assert.equal(demand.wanted(), false);
});

test('types filters that take printer.status', () => {
  assert.equal(takesPrinterStatus(null), true);
  assert.equal(takesPrinterStatus(['printer.*']), true);
  assert.equal(takesPrinterStatus(['*']), true);
  assert.equal(takesPrinterStatus(['job.*', 'printer.added']), false);
});
