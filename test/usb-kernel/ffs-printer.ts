// A printer gadget on FunctionFS (usb_f_fs), run as a child process in the guest (see gadget-client.ts): unlike
// usb_f_printer it can halt its bulk OUT endpoint. It writes a printer-class interface's descriptors and strings to
// ep0, answers GET_DEVICE_ID and GET_PORT_STATUS there, reads ep1 (bulk OUT) and records every byte. f_fs.c halts an
// endpoint when its file is read or written in the wrong direction (ffs_epfile_io: -EBADMSG after usb_ep_set_halt),
// so a one-byte write to ep1 stalls the host's bulk OUT until the host clears the halt.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, readSync, rmdirSync, symlinkSync, unlinkSync, writeFileSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { read } from 'node:fs';
import { join } from 'node:path';
import { writeGadgetDevice, type GadgetSpec } from './gadget-configfs';

/** A command from the test (the same protocol as gadget-printer.ts, with its own `set` state). */
export type FfsCommand = { op: 'received' } | { op: 'clear' } | { op: 'set'; state: Partial<FfsState> } | { op: 'stop' };

/** How the endpoint misbehaves. */
export interface FfsState {
  /** Halts bulk OUT once, as soon as this many bytes have arrived in all (0: never). */
  haltOnceAfterBytes: number;
  /** Halts bulk OUT again and again and reads nothing: every transfer stalls, also after a clear-halt. */
  haltAlways: boolean;
}

const GADGETS = '/sys/kernel/config/usb_gadget';
const state: FfsState = { haltOnceAfterBytes: 0, haltAlways: false };
const received: Buffer[] = [];
let total = 0;
let stopping = false;
/** Halts done so far (reported for the test's log). */
let halts = 0;
const POLL_MS = 5;
/** One read per host chunk (the daemon writes 16 KiB transfers): a read ends when its buffer is full or a short packet comes. */
const READ_BYTES = 16 * 1024;

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/** Interface (class 7/1/2) with a bulk OUT and a bulk IN endpoint of `mps` bytes. */
function interfaceDescriptors(mps: number): Buffer {
  const iface = Buffer.from([9, 4, 0, 0, 2, 7, 1, 2, 1]);
  const endpoint = (address: number) => Buffer.from([7, 5, address, 2, mps & 0xff, mps >> 8, 0]);
  return Buffer.concat([iface, endpoint(0x01), endpoint(0x82)]);
}

/** FUNCTIONFS_DESCRIPTORS_MAGIC_V2 with full- and high-speed descriptors. */
function descriptors(): Buffer {
  const fs = interfaceDescriptors(64);
  const hs = interfaceDescriptors(512);
  const body = Buffer.concat([u32(1 | 2), u32(3), u32(3), fs, hs]);
  return Buffer.concat([u32(3), u32(8 + body.length), body]);
}

/** FUNCTIONFS_STRINGS_MAGIC: one string (the interface's name) in en-US. */
function strings(): Buffer {
  const body = Buffer.concat([u32(1), u32(1), Buffer.from([0x09, 0x04]), Buffer.from('printer\0', 'latin1')]);
  return Buffer.concat([u32(2), u32(8 + body.length), body]);
}

function deviceIdReply(pnp: string): Buffer {
  const text = Buffer.from(pnp, 'latin1');
  const length = text.length + 2;
  return Buffer.concat([Buffer.from([length >> 8, length & 0xff]), text]);
}

function pause(ms = POLL_MS): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Builds the configfs gadget with an ffs function, mounts its functionfs and writes the descriptors; binds once ready. */
class FfsGadget {
  readonly mount: string;
  ep0 = -1;
  private readonly dir: string;

  constructor(readonly spec: GadgetSpec) {
    this.dir = join(GADGETS, spec.name);
    this.mount = `/dev/ffs-${spec.name}`;
  }

  create(): void {
    const { dir, spec } = this;
    writeGadgetDevice(dir, spec);
    mkdirSync(join(dir, `functions/ffs.${spec.name}`));
    symlinkSync(join(dir, `functions/ffs.${spec.name}`), join(dir, `configs/c.1/ffs.${spec.name}`));
    mkdirSync(this.mount, { recursive: true });
    execFileSync('mount', ['-t', 'functionfs', spec.name, this.mount]);
    this.ep0 = openSync(join(this.mount, 'ep0'), constants.O_RDWR | constants.O_NONBLOCK);
    writeFileSync(this.ep0, descriptors());
    writeFileSync(this.ep0, strings());
    const taken = new Set(readdirSync(GADGETS).map((g) => readFileSync(join(GADGETS, g, 'UDC'), 'utf8').trim()));
    const free = readdirSync('/sys/class/udc').find((u) => !taken.has(u));
    if (!free) throw new Error('no free UDC');
    writeFileSync(join(dir, 'UDC'), free);
  }

  /** Unbinds from the UDC: the host sees the printer go, and a pending endpoint read ends. */
  unbind(): void {
    if (existsSync(this.dir) && readFileSync(join(this.dir, 'UDC'), 'utf8').trim()) writeFileSync(join(this.dir, 'UDC'), '\n');
  }

  /** Removes the gadget once unbound and every endpoint file but ep0 is closed. */
  remove(): void {
    const { dir, spec } = this;
    if (!existsSync(dir)) return;
    this.unbind();
    if (this.ep0 >= 0) closeSync(this.ep0);
    this.ep0 = -1;
    execFileSync('umount', [this.mount]);
    unlinkSync(join(dir, `configs/c.1/ffs.${spec.name}`));
    rmdirSync(join(dir, 'configs/c.1/strings/0x409'));
    rmdirSync(join(dir, 'configs/c.1'));
    rmdirSync(join(dir, `functions/ffs.${spec.name}`));
    rmdirSync(join(dir, 'strings/0x409'));
    rmdirSync(dir);
  }
}

const EVENT_BYTES = 12;
const SETUP = 4;

/** Answers ep0 events: GET_DEVICE_ID and GET_PORT_STATUS; any other IN request is stalled (a read of ep0, f_fs's stall). */
async function ep0Loop(gadget: FfsGadget, pnp: string): Promise<void> {
  const events = Buffer.alloc(EVENT_BYTES * 4);
  while (!stopping) {
    let n: number;
    try {
      n = readSync(gadget.ep0, events, 0, events.length, null);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN' || stopping) {
        await pause();
        continue;
      }
      throw err;
    }
    for (let at = 0; at + EVENT_BYTES <= n; at += EVENT_BYTES) {
      if (events[at + 8] !== SETUP) continue;
      const requestType = events[at]!;
      const request = events[at + 1]!;
      const length = events.readUInt16LE(at + 6);
      const reply = requestType === 0xa1 && request === 0 ? deviceIdReply(pnp) : requestType === 0xa1 && request === 1 ? Buffer.from([0x18]) : null;
      try {
        if (reply) writeFileSync(gadget.ep0, reply.subarray(0, length));
        else readSync(gadget.ep0, Buffer.alloc(1), 0, 1, null);
      } catch {
        // a stall reads as an error (EL2HLT); a request the host gave up on as another
      }
    }
  }
}

/** Halts bulk OUT: a write to the OUT endpoint's file (f_fs.c: the wrong direction halts). */
function halt(ep1: number): void {
  try {
    writeFileSync(ep1, Buffer.from([0]));
  } catch {
    // EBADMSG: halted, as intended
  }
  halts += 1;
}

function readAsync(fd: number, buffer: Buffer): Promise<number> {
  return new Promise((resolve, reject) => read(fd, buffer, 0, buffer.length, null, (err, n) => (err ? reject(err) : resolve(n))));
}

/** Reads bulk OUT (on the thread pool: an f_fs read blocks until data comes) and halts when told; closes ep1 when stopping. */
async function outLoop(gadget: FfsGadget): Promise<void> {
  const path = join(gadget.mount, 'ep1');
  while (!existsSync(path)) await pause();
  const ep1 = openSync(path, constants.O_RDWR);
  const buffer = Buffer.alloc(READ_BYTES);
  while (!stopping) {
    if (state.haltAlways) {
      halt(ep1);
      await pause(20);
      continue;
    }
    if (state.haltOnceAfterBytes > 0 && total >= state.haltOnceAfterBytes) {
      state.haltOnceAfterBytes = 0;
      halt(ep1);
    }
    let n: number;
    try {
      n = await readAsync(ep1, buffer);
    } catch {
      // not enabled yet (the host has not configured the device), or disabled at an unbind
      await pause();
      continue;
    }
    received.push(Buffer.from(buffer.subarray(0, n)));
    total += n;
  }
  closeSync(ep1);
}

function reply(id: number, result: { ok: true; data?: string } | { ok: false; error: string }): void {
  process.send!({ id, ...result });
}

function main(): void {
  const spec = JSON.parse(process.argv[2]!) as GadgetSpec;
  const gadget = new FfsGadget(spec);
  gadget.create();
  let reading: Promise<void> = Promise.resolve();
  const stop = async () => {
    stopping = true;
    gadget.unbind();
    await reading;
    gadget.remove();
  };
  process.on('message', (message: { id: number; command: FfsCommand }) => {
    const { id, command } = message;
    try {
      switch (command.op) {
        case 'received':
          return reply(id, { ok: true, data: Buffer.concat(received).toString('base64') });
        case 'clear':
          received.length = 0;
          total = 0;
          return reply(id, { ok: true });
        case 'set':
          Object.assign(state, command.state);
          return reply(id, { ok: true, data: String(halts) });
        case 'stop':
          void stop().then(
            () => {
              reply(id, { ok: true });
              process.exit(0);
            },
            (err: unknown) => reply(id, { ok: false, error: String(err) }),
          );
          return;
      }
    } catch (err) {
      reply(id, { ok: false, error: String(err) });
    }
  });
  process.on('disconnect', () => {
    if (!stopping) void stop().finally(() => process.exit(0));
  });
  process.send!({ ready: gadget.mount });
  void ep0Loop(gadget, spec.pnpString);
  reading = outLoop(gadget);
}

main();
