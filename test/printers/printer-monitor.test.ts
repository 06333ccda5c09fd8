// The background monitor: probes only while wanted, once per interval per printer, never during a transfer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PrinterMonitor } from '../../src/printers/printer-monitor';
import { StatusDemand, takesPrinterStatus } from '../../src/events/status-demand';
import { silentLogger } from '../../src/log';

function monitorWith(demand: StatusDemand, busy = new Set<string>()) {
  let clock = 0;
  const probes: string[] = [];
  const monitor = new PrinterMonitor({
    wanted: () => demand.wanted(),
    printers: () => ['a', 'b'],
    probe: async (path) => void probes.push(path),
    transferring: (path) => busy.has(path),
    intervalMs: 5000,
    every: () => () => undefined,
    now: () => clock,
    logger: silentLogger,
  });
  return { monitor, probes, advance: (ms: number) => (clock += ms) };
}

test('with nobody listening, ticks probe nothing', async () => {
  const { monitor, probes, advance } = monitorWith(new StatusDemand());
  for (let i = 0; i < 100; i += 1) {
    monitor.tick();
    advance(1000);
  }
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(probes, []);
});

test('a claim starts probing each printer at most once per interval; its release stops it', async () => {
  const demand = new StatusDemand();
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
  const demand = new StatusDemand([() => true]);
  const busy = new Set(['a']);
  const { monitor, probes, advance } = monitorWith(demand, busy);
  monitor.tick();
  assert.deepEqual(probes, ['b']);
  busy.clear();
  advance(1000);
  monitor.tick();
  assert.deepEqual(probes, ['b', 'a']);
});

test('types filters that take printer.status', () => {
  assert.equal(takesPrinterStatus(null), true);
  assert.equal(takesPrinterStatus(['printer.*']), true);
  assert.equal(takesPrinterStatus(['*']), true);
  assert.equal(takesPrinterStatus(['job.*', 'printer.added']), false);
});
