// Status probes of a USB printer while usblp is loaded: the daemon detaches usblp once (it keeps the printer from
// first use, as PAPPL does) instead of detaching and re-attaching it at every probe, and gives it back when it stops.
// The event loop's worst stall during probes is measured beside idle windows of the same length, interleaved.
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
const WINDOWS = 5;
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

/** Interfaces usblp is bound to now (sysfs names like 1-1:1.0). */
function bound(): string[] {
  return readdirSync('/sys/bus/usb/drivers/usblp').filter((n) => /^\d+-[\d.]+:\d+\.\d+$/.test(n));
}

test('status probes with usblp loaded: usblp is detached once and stays so while the daemon runs, and comes back when it stops; probes add no event-loop stall of 50 ms', async () => {
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
  // windows of the same length, interleaved: idle ones show what the emulated guest itself costs the event loop
  const idle = monitorEventLoopDelay({ resolution: 5 });
  const probing = monitorEventLoopDelay({ resolution: 5 });
  for (let i = 0; i < WINDOWS; i++) {
    idle.enable();
    await delay(WINDOW_MS);
    idle.disable();
    probing.enable();
    assert.ok(await listed(), 'listed');
    await delay(WINDOW_MS);
    probing.disable();
  }
  const during = bound();
  const ms = (h: ReturnType<typeof monitorEventLoopDelay>, f: (h: ReturnType<typeof monitorEventLoopDelay>) => number) => (f(h) / 1e6).toFixed(1);
  console.log(
    `# usblp: ${WINDOWS} status probes; worst event-loop stall ${ms(probing, (h) => h.max)} ms while probing (p99 ${ms(probing, (h) => h.percentile(99))} ms), ` +
      `${ms(idle, (h) => h.max)} ms idle (p99 ${ms(idle, (h) => h.percentile(99))} ms); usblp bound to ${JSON.stringify(before)} before the daemon, ${JSON.stringify(during)} while it runs`,
  );
  await d.stop();
  d = null;
  await until('usblp has the Epson back once the daemon stopped (an Epson: re-attached; a Zebra would not be)', () => bound().length === 1, 20_000);
  console.log(`# usblp bound to ${JSON.stringify(bound())} after the daemon stopped`);
  assert.deepEqual(during, [], 'the daemon owns its printer while it runs: usblp stays detached, no churn');
  const added = (probing.max - idle.max) / 1e6;
  assert.ok(added < 50, `status probes added ${added.toFixed(1)} ms to the worst event-loop stall`);
});
