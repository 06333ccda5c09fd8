// Pre-flight and live status of LabelWriters through a Transport onto the emulator: ready, paper out, a non-DYMO roll,
// silence (and the ESC flush recovery), an unreachable device.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DYMO } from '../../../src/languages/dymo';
import { dymoLiveStatus, dymoPreflight } from '../../../src/languages/dymo/dymo-probe';
import { DymoPrinterEmulator } from '../../fixtures/dymo-printer';
import { dymoMemoryTransport } from './dymo-memory-transport';

test('a ready 450 and 550: pre-flight ready, live status online, one ESC A each', async () => {
  for (const model of ['450', '550'] as const) {
    const transport = dymoMemoryTransport(new DymoPrinterEmulator({ model }));
    assert.deepEqual(await dymoPreflight(transport, 1000, false), { kind: 'ready' });
    assert.deepEqual(await dymoLiveStatus(transport, 1000), { status: 'online', statusReasons: [] });
    assert.deepEqual(transport.queries.map((q) => [...q]), [[0x1b, 0x41], [0x1b, 0x41]]);
  }
});

test('paper out on a 450 and a non-DYMO roll on a 550: not ready with the texts, error with reasons', async () => {
  const p450 = new DymoPrinterEmulator({ model: '450' });
  p450.state.paperOut = true;
  const t450 = dymoMemoryTransport(p450);
  const outcome = await dymoPreflight(t450, 1000, false);
  assert.equal(outcome.kind, 'not-ready');
  assert.equal(outcome.kind === 'not-ready' && outcome.readiness.paperOut, true);
  assert.deepEqual(await dymoLiveStatus(t450, 1000), { status: 'error', statusReasons: ['media-empty-error'] });

  const p550 = new DymoPrinterEmulator({ model: '550' });
  p550.state.notDymoRoll = true;
  const t550 = dymoMemoryTransport(p550);
  const refused = await DYMO.device!.preflight!(t550, 1000, false);
  assert.ok(refused.kind === 'not-ready' && /not a DYMO roll/.test(refused.readiness.errors.join()), JSON.stringify(refused));
  assert.deepEqual(await DYMO.device!.liveStatus(t550, 1000), { status: 'error', statusReasons: ['media-needed-error'] });
});

test('silence: pre-flight silent (with recover, after an ESC flush and ESC A), live status unknown; a gone device is offline', async () => {
  const printer = new DymoPrinterEmulator({ model: '450' });
  printer.state.silent = true;
  const transport = dymoMemoryTransport(printer);
  assert.deepEqual(await dymoPreflight(transport, 1000, true), { kind: 'silent' });
  assert.equal(transport.queries.length, 2);
  assert.ok(transport.queries[1].length > 150 && transport.queries[1].subarray(-2).equals(Buffer.from('\x1bA', 'latin1')));
  assert.deepEqual(await dymoLiveStatus(transport, 1000), { status: 'unknown', statusReasons: [] });
  assert.deepEqual(await dymoLiveStatus(dymoMemoryTransport(printer, { unreachable: true }), 1000), { status: 'offline', statusReasons: [] });
});

test('recovery: a job cut off mid-line leaves the 450 waiting for line bytes; the ESC flush ends it and ESC A is answered', async () => {
  const printer = new DymoPrinterEmulator({ model: '450' });
  const transport = dymoMemoryTransport(printer);
  await transport.send(Buffer.from([0x1b, 0x40, 0x1b, 0x44, 84, 0x16, 1, 2, 3]));
  assert.deepEqual(await dymoPreflight(transport, 1000, false), { kind: 'silent' }, 'ESC A is eaten as line bytes');
  assert.deepEqual(await dymoPreflight(transport, 1000, true), { kind: 'ready' });
});
