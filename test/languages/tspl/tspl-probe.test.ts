// TSPL pre-flight and live status over the two byte-stream transports: TCP 9100 (the emulator) and USB bulk (the fake bus).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsbTransport, type UsbLocator } from '../../../src/kinds/usb/usb-transport';
import { tsplLiveStatus, tsplPreflight } from '../../../src/languages/tspl/tspl-probe';
import { speaksTspl } from '../../../src/languages/tspl/tspl-device-id';
import type { TcpTransport } from '../../../src/transports/tcp-transport';
import { InterfaceClaims } from '../../../src/usb/usb-claim';
import { deviceIdText, parseDeviceId } from '../../../src/usb/ieee1284';
import { READINESS_ERRORS } from '../../../src/languages/readiness';
import { deviceIdReply, FakeUsbBus } from '../../fixtures/fake-usb';
import { TsplPrinterEmulator } from '../../fixtures/tspl-printer';
import { tsplOverTcp } from './tspl-over-tcp';

const printer = new TsplPrinterEmulator();
let tcp: TcpTransport;

tsplOverTcp(printer, (t) => { tcp = t; });

test('TCP pre-flight: ready, ready while printing, not ready with the decisions.md texts', async () => {
  assert.deepEqual(await tsplPreflight(tcp, 5000), { kind: 'ready' });
  printer.state.printing = true;
  assert.deepEqual(await tsplPreflight(tcp, 5000), { kind: 'ready' });
  printer.state.printing = false;
  printer.state.ribbonOut = true;
  printer.state.paused = true;
  const outcome = await tsplPreflight(tcp, 5000);
  assert.equal(outcome.kind, 'not-ready');
  assert.deepEqual(outcome.kind === 'not-ready' && outcome.readiness, {
    ready: false, paperOut: false, paused: true, headOpen: false, ribbonOut: true, errors: [READINESS_ERRORS.paused, READINESS_ERRORS.ribbonOut],
  });
  printer.state.ribbonOut = false;
  printer.state.paused = false;
});

test('TCP live status: online, error with IPP reasons, unknown when silent', async () => {
  assert.deepEqual(await tsplLiveStatus(tcp, 5000), { status: 'online', statusReasons: [] });
  printer.state.paperJam = true;
  assert.deepEqual(await tsplLiveStatus(tcp, 5000), { status: 'error', statusReasons: ['media-jam-error'] });
  printer.state.paperJam = false;
  printer.silent = true;
  assert.deepEqual(await tsplLiveStatus(tcp, 300), { status: 'unknown', statusReasons: [] });
  assert.deepEqual(await tsplPreflight(tcp, 300), { kind: 'silent' });
  printer.silent = false;
});

test('an unreachable printer: pre-flight lets the job be attempted (silent), live status is offline; no reset was sent', async () => {
  const resets = printer.resets;
  await printer.die();
  try {
    assert.deepEqual(await tsplPreflight(tcp, 1000), { kind: 'silent' });
    assert.deepEqual(await tsplLiveStatus(tcp, 1000), { status: 'offline', statusReasons: [] });
  } finally {
    await printer.revive();
  }
  assert.equal(printer.resets, resets);
});

function usbTsplPrinter(statusBytes: number[]) {
  const bus = new FakeUsbBus();
  const device = bus.add({ vendorId: 0x1203, productId: 0x0230, serialNumber: 'TE200', hasInEndpoint: true, deviceIdReply: deviceIdReply('MFG:TSC;MDL:TE200;CMD:TSPL2;CLS:PRINTER;') });
  for (const byte of statusBytes) device.inQueue.push(Buffer.of(byte));
  const { busNumber, portNumbers, vendorId, productId } = device.info;
  const locator: UsbLocator = { bus: busNumber, ports: portNumbers.join('.'), vendorId, productId, interface: 0 };
  return { device, transport: new UsbTransport({ claims: new InterfaceClaims(bus), locator, writeTimeoutMs: 1000 }) };
}

test('USB: the 1284 id says TSPL, <ESC>!? goes out on bulk OUT and the byte from bulk IN decides pre-flight and status', async () => {
  const { device, transport } = usbTsplPrinter([0x04, 0x00]);
  assert.equal(speaksTspl(parseDeviceId(deviceIdText(device.spec.deviceIdReply!))), true);
  const outcome = await tsplPreflight(transport, 1000);
  assert.deepEqual(outcome.kind === 'not-ready' && outcome.readiness.errors, [READINESS_ERRORS.paperOut]);
  assert.deepEqual(device.transfers.filter((t) => t.length > 0).at(-1), Buffer.from([0x1b, 0x21, 0x3f]));
  assert.deepEqual(await tsplLiveStatus(transport, 1000), { status: 'online', statusReasons: [] });
});

test('USB: a printer that does not answer is silent for pre-flight and unknown for status', async () => {
  const { transport } = usbTsplPrinter([]);
  assert.deepEqual(await tsplPreflight(transport, 200), { kind: 'silent' });
  assert.deepEqual(await tsplLiveStatus(transport, 200), { status: 'unknown', statusReasons: [] });
});
