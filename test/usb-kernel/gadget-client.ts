// Starts gadget-printer.ts as a child process and drives it: the test's handle on one printer gadget.
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { GadgetSpec } from './gadget-configfs';
import type { GadgetCommand, GadgetState } from './gadget-printer';
import type { FfsCommand, FfsState } from './ffs-printer';

/** A Zebra ZD421 as a gadget; override any field. */
export function zebraSpec(overrides: Partial<GadgetSpec> = {}): GadgetSpec {
  return {
    name: 'zebra',
    vendorId: 0x0a5f,
    productId: 0x0166,
    serialNumber: 'D4J211111',
    manufacturer: 'Zebra Technologies',
    product: 'ZTC ZD421-203dpi ZPL',
    pnpString: 'MFG:Zebra Technologies;CMD:ZPL;MDL:ZD421;CLS:PRINTER;',
    ...overrides,
  };
}

/** A TSC TE200 TSPL label printer as a gadget (answers `<ESC>!?`); override any field. */
export function tsplSpec(overrides: Partial<GadgetSpec> = {}): GadgetSpec {
  return {
    name: 'tspl',
    vendorId: 0x1203,
    productId: 0x0230,
    serialNumber: 'TSC211111',
    manufacturer: 'TSC',
    product: 'TE200',
    pnpString: 'MFG:TSC;CMD:TSPL2;MDL:TE200;CLS:PRINTER;',
    ...overrides,
  };
}

/** A DYMO LabelWriter 450 (its USB ids and 1284 id; answers ESC A); override any field. */
export function dymoSpec(overrides: Partial<GadgetSpec> = {}): GadgetSpec {
  return {
    name: 'dymo',
    vendorId: 0x0922,
    productId: 0x0020,
    serialNumber: '01010112345600',
    manufacturer: 'DYMO',
    product: 'DYMO LabelWriter 450',
    pnpString: 'MFG:DYMO;CMD: ;MDL:LabelWriter 450;CLASS:PRINTER;DESCRIPTION:DYMO LabelWriter 450;',
    emulator: 'dymo-450',
    ...overrides,
  };
}

/** A Zebra LP 2844 in EPL2 (its 1284 id names EPL; answers `^ee`); override any field. */
export function epl2Spec(overrides: Partial<GadgetSpec> = {}): GadgetSpec {
  return {
    name: 'epl2',
    vendorId: 0x0a5f,
    productId: 0x000a,
    serialNumber: '42A061900123',
    manufacturer: 'Zebra',
    product: 'LP 2844',
    pnpString: 'MANUFACTURER:Zebra;COMMAND SET:EPL;MODEL:LP 2844;CLASS:PRINTER;',
    emulator: 'epl2',
    ...overrides,
  };
}

/** A printer gadget running in its own process. */
export class GadgetPrinter {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (data: string | undefined) => void; reject: (err: Error) => void }>();

  private constructor(
    private readonly child: ChildProcess,
    /** The gadget side's device node. */
    readonly devicePath: string,
  ) {
    child.on('message', (m: { id: number; ok: boolean; data?: string; error?: string }) => {
      const waiter = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (m.ok) waiter?.resolve(m.data);
      else waiter?.reject(new Error(m.error));
    });
    child.on('exit', (code, signal) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`gadget program exited (${signal ?? code})`));
      this.pending.clear();
    });
  }

  /** Builds and binds the gadget (the host sees it attach); resolves once its program reads. `program`: gadget-printer.ts (usb_f_printer) or ffs-printer.ts (FunctionFS). */
  static async start(spec: GadgetSpec, program: 'gadget-printer.ts' | 'ffs-printer.ts' = 'gadget-printer.ts'): Promise<GadgetPrinter> {
    const child = fork(join(__dirname, program), [JSON.stringify(spec)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const devicePath = await new Promise<string>((resolve, reject) => {
      child.once('message', (m: { ready?: string }) => (m.ready ? resolve(m.ready) : reject(new Error('unexpected first message'))));
      child.once('exit', (code) => reject(new Error(`gadget program exited (${code}) before it was ready`)));
    });
    return new GadgetPrinter(child, devicePath);
  }

  private command(command: GadgetCommand | FfsCommand): Promise<string | undefined> {
    const id = this.nextId++;
    if (this.child.exitCode !== null || this.child.signalCode !== null) return Promise.reject(new Error('gadget program has exited'));
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, command });
    });
  }

  /** Every byte the printer read so far. */
  async received(): Promise<Buffer> {
    return Buffer.from((await this.command({ op: 'received' })) ?? '', 'base64');
  }

  /** Forgets what was received. */
  async clear(): Promise<void> {
    await this.command({ op: 'clear' });
  }

  /** Changes how it behaves (silent, paused, paper out, head open). */
  async set(state: Partial<GadgetState>): Promise<void> {
    await this.command({ op: 'set', state });
  }

  /** Changes how a FunctionFS printer's bulk OUT endpoint misbehaves (halts); resolves with the halts done so far. */
  async setEndpoint(state: Partial<FfsState>): Promise<number> {
    return Number(await this.command({ op: 'set', state }));
  }

  /** Unbinds the UDC: the host sees the printer vanish. */
  async unplug(): Promise<void> {
    await this.command({ op: 'unplug' });
  }

  /** Binds again: the host sees it attach. */
  async plug(): Promise<void> {
    await this.command({ op: 'plug' });
  }

  /** Unbinds, removes the gadget and ends its program. */
  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.command({ op: 'stop' });
    await exited;
  }
}
