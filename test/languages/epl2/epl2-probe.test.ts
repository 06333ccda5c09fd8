// EPL2 pre-flight and live status over a real TCP socket to the emulator, and over USB bulk (the fake bus).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsbTransport, type UsbLocator } from '../../../src/kinds/usb/usb-transport';
import { EPL2 } from '../../../src/languages/epl2';
import { epl2LiveStatus, epl2Preflight } from '../../../src/languages/epl2/epl2-probe';
import { EPL2_ERRORS, EPL2_STATUS_QUERY } from '../../../src/languages/epl2/epl2-status';
import { READINESS_ERRORS } from '../../../src/languages/readiness';
import type { TcpTransport } from '../../../src/transports/tcp-transport';
import { deviceIdText, parseDeviceId } from '../../../src/usb/ieee1284';
import { InterfaceClaims } from '../../../src/usb/usb-claim';
import { Epl2PrinterEmulator } from '../../fixtures/epl2-printer';
import { deviceIdReply, FakeUsbBus } from '../../fixtures/fake-usb';
import { epl2OverTcp } from './epl2-over-tcp';

const printer = new Epl2PrinterEmulator();
let tcp: TcpTransport;

epl2OverTcp(printer, (t) => { tcp = t; });

test('TCP: a ready printer is ready and online', async () => {
  assert.deepEqual(await epl2Preflight(tcp, 5000), { kind: 'ready' });
  assert.deepEqual(await epl2LiveStatus(tcp, 5000), { status: 'online', statusReasons: [] });
  assert.equal(printer.statusAnswered, 2);
});

test('TCP: paper out (07) is not ready with media-empty-error; a past syntax error (01) is still ready', async () => {
  printer.state.paperOut = true;
  try {
    const outcome = await EPL2.device!.preflight!(tcp, 5000, true);
    assert.deepEqual(outcome, { kind: 'not-ready', readiness: { ready: false, paperOut: true, paused: false, headOpen: false, ribbonOut: false, errors: [EPL2_ERRORS.paperOrRibbonOut] } });
    assert.deepEqual(await epl2LiveStatus(tcp, 5000), { status: 'error', statusReasons: ['media-empty-error'] });
  } finally {
    printer.state.paperOut = false;
  }
  printer.state.extraCodes = [1];
  try {
    assert.deepEqual(await epl2Preflight(tcp, 5000), { kind: 'ready' });
  } finally {
    printer.state.extraCodes = [];
  }
});

test('TCP: head open and cutter together name both', async () => {
  printer.state.headOpen = true;
  printer.state.cutterJam = true;
  try {
    const outcome = await epl2Preflight(tcp, 5000);
    assert.deepEqual(outcome.kind === 'not-ready' && outcome.readiness.errors, [READINESS_ERRORS.headOpen, EPL2_ERRORS.cutterJam]);
    assert.deepEqual(await epl2LiveStatus(tcp, 5000), { status: 'error', statusReasons: ['cover-open-error', 'other-error'] });
  } finally {
    printer.state.headOpen = false;
    printer.state.cutterJam = false;
  }
});

test('TCP: a silent printer is silent for pre-flight (the job is attempted), unknown for status', async () => {
  printer.silent = true;
  try {
    assert.deepEqual(await epl2Preflight(tcp, 300), { kind: 'silent' });
    assert.deepEqual(await epl2LiveStatus(tcp, 300), { status: 'unknown', statusReasons: [] });
  } finally {
    printer.silent = false;
  }
});

test('TCP: an unreachable printer is silent for pre-flight, offline for status', async () => {
  await printer.die();
  try {
    assert.deepEqual(await epl2Preflight(tcp, 1000), { kind: 'silent' });
    assert.deepEqual(await epl2LiveStatus(tcp, 1000), { status: 'offline', statusReasons: [] });
  } finally {
    await printer.revive();
  }
});

/** An LP 2844 on the fake bus (its 1284 id as LPrint's EPL driver matches it) whose bulk IN holds `replies`. */
function usbEpl2Printer(replies: Buffer[]) {
  const bus = new FakeUsbBus();
  const device = bus.add({ vendorId: 0x0a5f, productId: 0x000a, serialNumber: '42A000000001', hasInEndpoint: true, deviceIdReply: deviceIdReply('MANUFACTURER:Zebra Technologies;COMMAND SET:EPL;MODEL:LP 2844;CLASS:PRINTER;') });
  device.inQueue.push(...replies);
  const { busNumber, portNumbers, vendorId, productId } = device.info;
  const locator: UsbLocator = { bus: busNumber, ports: portNumbers.join('.'), vendorId, productId, interface: 0 };
  return { device, transport: new UsbTransport({ claims: new InterfaceClaims(bus), locator, writeTimeoutMs: 1000 }) };
}

test('USB: the 1284 id says EPL, ^ee goes out on bulk OUT and the emulator\'s answer on bulk IN decides', async () => {
  const usbPrinter = new Epl2PrinterEmulator();
  usbPrinter.state.paperOut = true;
  const paperOut = usbPrinter.feed(EPL2_STATUS_QUERY);
  usbPrinter.state.paperOut = false;
  const { device, transport } = usbEpl2Printer([paperOut, usbPrinter.feed(EPL2_STATUS_QUERY)]);
  const id = parseDeviceId(deviceIdText(device.spec.deviceIdReply!));
  assert.equal(EPL2.usb!.matches(id, device.info), true);
  const outcome = await epl2Preflight(transport, 1000);
  assert.deepEqual(outcome.kind === 'not-ready' && outcome.readiness.errors, [EPL2_ERRORS.paperOrRibbonOut]);
  assert.deepEqual(device.transfers.filter((t) => t.length > 0).at(-1), EPL2_STATUS_QUERY);
  assert.deepEqual(await epl2LiveStatus(transport, 1000), { status: 'online', statusReasons: [] });
});

test('USB: a printer that answers nothing is silent for pre-flight and unknown for status', async () => {
  const { transport } = usbEpl2Printer([]);
  assert.deepEqual(await epl2Preflight(transport, 200), { kind: 'silent' });
  assert.deepEqual(await epl2LiveStatus(transport, 200), { status: 'unknown', statusReasons: [] });
});
