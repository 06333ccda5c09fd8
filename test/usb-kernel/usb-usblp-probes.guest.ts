// Status probes of a USB printer while usblp is loaded: the daemon detaches usblp once (it keeps the printer from
// first use, as PAPPL does) instead of detaching and re-attaching it at every probe, and gives it back when it stops.
// The event loop's worst stall during probes is measured beside idle windows of the same length, interleaved, and
// printed: a figure for the notes, not asserted, since under software emulation on a loaded host the idle windows alone
// stall for 50-65 ms (a timing never goes in a test). What is asserted is the cause of the old stalls: no usblp churn.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { libusbBackend } from '../../src/usb/libusb-backend';
import { startInProcess, type InProcessDaemon } from '../helpers/in-process-daemon';
import { until, valueWithin } from '../helpers/until';
import { GadgetPrinter } from './gadget-client';

const PATH = 'usb_sn_TMLP1';
/** Longer than the status cache's 2 s: every GET in a probe window probes the printer. */
const WINDOW_MS = 2100;
const WINDOWS = 7;
let epson: GadgetPrinter;
let d: InProcessDaemon | null = null;

before(async () => {
  epson = await GadgetPrinter.start({
    name: 'tmlp',
    vendorId: 0x04b8,
    productId: 0x0203,
    serialNumber: 'TMLP1',
    manufacturer: 'EPSON',
    product: 'TM-T20III',
    pnpString: 'MFG:EPSON;CMD:ESC/POS;MDL:TM-T20III;CLS:PRINTER;',
  });
});
after(async () => {
  await d?.stop();
  await epson?.stop();
});

/** The worst and 99th-percentile event-loop delay over one window, ms. */
interface Stall {
  maxMs: number;
  p99Ms: number;
}

/** Measures the event loop's delay while `work` runs, with a histogram of its own. */
async function measure(work: () => Promise<void>): Promise<Stall> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  await work();
  histogram.disable();
  return { maxMs: histogram.max / 1e6, p99Ms: histogram.percentile(99) / 1e6 };
}

/** Interfaces usblp is bound to now (sysfs names like 1-1:1.0). */
function bound(): string[] {
  return readdirSync('/sys/bus/usb/drivers/usblp').filter((n) => /^\d+-[\d.]+:\d+\.\d+$/.test(n));
}

test('status probes with usblp loaded: usblp is detached once and stays so while the daemon runs, and comes back when it stops; the event-loop stall while probing is measured', async () => {
  assert.ok(existsSync('/sys/bus/usb/drivers/usblp'), 'usblp is loaded');
  await until('usblp binds the gadget before the daemon starts', () => bound().length === 1, 30_000);
  const before = bound();
  d = await startInProcess({ usb: libusbBackend });
  const daemon = d;
  const listed = async () => {
    const res = await daemon.api('GET', `/printers/${PATH}`);
    return res.status === 200 ? res.body.result.content : null;
  };
  await valueWithin('the Epson is listed', 30_000, listed);
  // windows of the same length, interleaved: idle ones show what the emulated guest itself costs the event loop. A
  // fresh histogram per window: one enabled again would count the disabled span as a delay
  const idle: Stall[] = [];
  const probing: Stall[] = [];
  for (let i = 0; i < WINDOWS; i++) {
    idle.push(await measure(() => delay(WINDOW_MS)));
    probing.push(
      await measure(async () => {
        assert.ok(await listed(), 'listed');
        await delay(WINDOW_MS);
      }),
    );
  }
  const during = bound();
  const worst = (stalls: Stall[]) => Math.max(...stalls.map((s) => s.maxMs));
  const p99 = (stalls: Stall[]) => Math.max(...stalls.map((s) => s.p99Ms));
  const typical = (stalls: Stall[]) => stalls.map((s) => s.maxMs).sort((a, b) => a - b)[Math.floor(stalls.length / 2)];
  console.log(
    `# usblp: ${WINDOWS} status probes; event-loop stall per probe window: median ${typical(probing).toFixed(1)} ms, worst ${worst(probing).toFixed(1)} ms (p99 ${p99(probing).toFixed(1)} ms); ` +
      `idle windows: median ${typical(idle).toFixed(1)} ms, worst ${worst(idle).toFixed(1)} ms (p99 ${p99(idle).toFixed(1)} ms); usblp bound to ${JSON.stringify(before)} before the daemon, ${JSON.stringify(during)} while it runs`,
  );
  await d.stop();
  d = null;
  await until('usblp has the Epson back once the daemon stopped (an Epson: re-attached; a Zebra would not be)', () => bound().length === 1, 20_000);
  console.log(`# usblp bound to ${JSON.stringify(bound())} after the daemon stopped`);
  assert.deepEqual(during, [], 'the daemon owns its printer while it runs: usblp stays detached, no churn');
});
