// The printer side of a USB printer gadget, run as a child process in the guest (see gadget-client.ts): builds the
// gadget, reads /dev/g_printerN and records every byte, answers ~HS on the IN side like a Zebra, and on command goes
// silent (stops reading: the host's bulk OUT is NAKed once the function's queue is full), pauses, or vanishes
// (unbinds its UDC) and comes back; it can also take the first bytes of a job and then go silent.
import { closeSync, constants, openSync, readSync, writeSync } from 'node:fs';
import { DymoPrinterEmulator } from '../fixtures/dymo-printer';
import { Epl2PrinterEmulator } from '../fixtures/epl2-printer';
import { ConfigfsPrinterGadget, type GadgetSpec } from './gadget-configfs';

/** A command from the test. */
export type GadgetCommand =
  | { op: 'received' }
  | { op: 'clear' }
  | { op: 'set'; state: Partial<GadgetState> }
  | { op: 'unplug' }
  | { op: 'plug' }
  | { op: 'stop' };

/** What the printer does with what arrives. */
export interface GadgetState {
  /** Stops reading and answering. */
  silent: boolean;
  /** Goes silent once this many bytes have arrived in all (0: never). */
  silentAfterBytes: number;
  paused: boolean;
  paperOut: boolean;
  /** A receipt printer's roll near its end (DLE EOT 4). */
  paperNearEnd: boolean;
  /** The print head (a Zebra) or the cover (a receipt printer) is open. */
  headOpen: boolean;
}

const state: GadgetState = { silent: false, silentAfterBytes: 0, paused: false, paperOut: false, paperNearEnd: false, headOpen: false };
const received: Buffer[] = [];
let tail = '';
let fd = -1;
let wake: (() => void) | null = null;
let stopping = false;
/** The emulator of a DYMO or EPL2 gadget: it reads every byte and answers status queries (paper out follows `state`). */
let emulator: { feed(bytes: Uint8Array): Buffer; state: { paperOut: boolean } } | null = null;
/** How often a printer with nothing to read looks again (ms). */
const POLL_MS = 2;

/** The three framed ~HS strings for the current state (ZPL II guide field order, as the TCP emulator). */
function hostStatusReply(): string {
  const b = (v: boolean) => (v ? '1' : '0');
  return (
    `\x02030,${b(state.paperOut)},${b(state.paused)},1218,000,0,0,0,000,0,0,0\x03\r\n` +
    `\x02001,0,${b(state.headOpen)},0,1,2,6,0,00000000,1,000\x03\r\n` +
    `\x021234,0\x03\r\n`
  );
}

/** The byte a TSPL printer answers to `<ESC>!?`: head open 0x01, paper out 0x04, paused 0x10 (TSPL/TSPL2 manual). */
function tsplStatus(): number {
  return (state.headOpen ? 0x01 : 0) | (state.paperOut ? 0x04 : 0) | (state.paused ? 0x10 : 0);
}

/** The byte an Epson TM answers to DLE EOT n (ESC/POS real-time status; bits 1 and 4 always on). */
function realtimeStatus(n: number): number {
  const offline = state.paperOut || state.headOpen || state.paused;
  switch (n) {
    case 1:
      return 0x12 | (offline ? 0x08 : 0);
    case 2:
      return 0x12 | (state.headOpen ? 0x04 : 0) | (state.paperOut ? 0x20 : 0);
    case 4:
      return 0x12 | (state.paperNearEnd || state.paperOut ? 0x0c : 0) | (state.paperOut ? 0x60 : 0);
    default:
      return 0x12;
  }
}

/** One non-blocking read: bytes, or null when none are waiting or the host has not configured the device (ENODEV). */
function readSome(buffer: Buffer): number | null {
  try {
    return readSync(fd, buffer, 0, buffer.length, null);
  } catch (err) {
    if (retryable(err)) return null;
    throw err;
  }
}

function retryable(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'EAGAIN' || code === 'ENODEV' || code === 'ESHUTDOWN';
}

/** Writes all of `data`, waiting while the function's IN queue is full; gives up once the node is closed (an unplug). */
async function writeAll(data: Buffer): Promise<void> {
  let offset = 0;
  while (offset < data.length && !stopping && fd >= 0) {
    try {
      offset += writeSync(fd, data, offset);
    } catch (err) {
      if (!retryable(err)) throw err;
      await pause();
    }
  }
}

function pause(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, POLL_MS));
}

/** Resolves at the next command that may let the read loop go on. */
function changed(): Promise<void> {
  return new Promise((resolve) => (wake = resolve));
}

/** Opens the device node, which f_printer refuses (ENODEV) until the host has configured the device: retried every POLL_MS; -1 once unbound. */
async function openWhenConfigured(gadget: ConfigfsPrinterGadget): Promise<number> {
  while (gadget.bound && !stopping) {
    try {
      return openSync(gadget.devicePath, constants.O_RDWR | constants.O_NONBLOCK);
    } catch (err) {
      // ENOENT: devtmpfs has not made the node of a new bind yet
      if (!retryable(err) && (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      await pause();
    }
  }
  return -1;
}

/**
 * Reads without blocking, every POLL_MS while nothing is waiting. A blocking read would not do: f_printer queues its
 * OUT requests only when read or polled, so a reader asleep across an unbind and bind waits forever (holding the
 * device's I/O mutex). The file is closed before an unbind and opened again after the bind.
 */
async function readLoop(gadget: ConfigfsPrinterGadget, speaksTspl: boolean): Promise<void> {
  const buffer = Buffer.alloc(64 * 1024);
  while (!stopping) {
    if (state.silent || !gadget.bound) {
      await changed();
      continue;
    }
    if (fd < 0) {
      fd = await openWhenConfigured(gadget);
      continue;
    }
    const n = readSome(buffer);
    if (!n) {
      await pause();
      continue;
    }
    const piece = Buffer.from(buffer.subarray(0, n));
    received.push(piece);
    if (state.silentAfterBytes > 0 && received.reduce((sum, b) => sum + b.length, 0) >= state.silentAfterBytes) state.silent = true;
    if (emulator) {
      emulator.state.paperOut = state.paperOut;
      const answer = emulator.feed(piece);
      if (answer.length > 0) await writeAll(answer);
      continue;
    }
    const text = tail + piece.toString('latin1');
    tail = text.slice(-2);
    if (text.includes('~HS')) await writeAll(Buffer.from(hostStatusReply(), 'latin1'));
    for (const m of text.matchAll(/\x10\x04([\x01-\x04])/g)) await writeAll(Buffer.from([realtimeStatus(m[1]!.charCodeAt(0))]));
    // only a TSPL printer answers <ESC>!?: to an ESC/POS printer ESC ! is a print mode
    if (speaksTspl) for (const _ of text.matchAll(/\x1b!\?/g)) await writeAll(Buffer.from([tsplStatus()]));
  }
}

/** Closes the device node before an unbind: closing it after an unbind and bind hits a kernel BUG in f_printer (6.1: list_del corruption in close). */
function closeDevice(): void {
  if (fd >= 0) closeSync(fd);
  fd = -1;
}

function reply(id: number, result: { ok: true; data?: string } | { ok: false; error: string }): void {
  process.send!({ id, ...result });
}

function main(): void {
  const spec = JSON.parse(process.argv[2]!) as GadgetSpec;
  const gadget = ConfigfsPrinterGadget.create(spec);
  if (spec.emulator) emulator = spec.emulator === 'epl2' ? new Epl2PrinterEmulator() : new DymoPrinterEmulator({ model: '450' });
  process.on('message', (message: { id: number; command: GadgetCommand }) => {
    const { id, command } = message;
    try {
      switch (command.op) {
        case 'received':
          return reply(id, { ok: true, data: Buffer.concat(received).toString('base64') });
        case 'clear':
          received.length = 0;
          tail = '';
          return reply(id, { ok: true });
        case 'set':
          Object.assign(state, command.state);
          break;
        case 'unplug':
          closeDevice();
          gadget.unbind();
          break;
        case 'plug':
          gadget.bind();
          break;
        case 'stop':
          stopping = true;
          closeDevice();
          gadget.remove();
          reply(id, { ok: true });
          process.disconnect();
          return;
      }
      wake?.();
      wake = null;
      reply(id, { ok: true });
    } catch (err) {
      reply(id, { ok: false, error: String(err) });
    }
  });
  // the test process ended without stopping it: take the gadget away all the same
  process.on('disconnect', () => {
    if (stopping) return;
    stopping = true;
    closeDevice();
    gadget.remove();
  });
  process.send!({ ready: gadget.devicePath });
  void readLoop(gadget, /CMD:[^;]*TSPL/i.test(spec.pnpString));
}

main();
