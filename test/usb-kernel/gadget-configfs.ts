// A USB printer gadget in configfs (libcomposite + usb_f_printer) on a dummy_hcd UDC: create, bind, unbind, remove.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const GADGETS = '/sys/kernel/config/usb_gadget';
const PRINTER_CLASS = '/sys/class/usb_printer_gadget';

/** What the gadget presents to the host. */
export interface GadgetSpec {
  /** configfs name, also the function instance name (printer.<name>). */
  name: string;
  vendorId: number;
  productId: number;
  serialNumber: string;
  manufacturer: string;
  product: string;
  /** The IEEE 1284 device id GET_DEVICE_ID answers with, e.g. "MFG:Zebra Technologies;CMD:ZPL;MDL:ZD421;CLS:PRINTER;". */
  pnpString: string;
  /** The printer behind the gadget reads its bytes and answers through this test/fixtures emulator (DYMO: ESC A; EPL2: ^ee); absent: the built-in Zebra/TSPL/ESC-POS answers. */
  emulator?: 'dymo-450' | 'epl2';
}

/** Makes the gadget folder `dir` in configfs with the device descriptor and strings of `spec`, and one configuration c.1. */
export function writeGadgetDevice(dir: string, spec: GadgetSpec): void {
  const hex = (n: number) => `0x${n.toString(16).padStart(4, '0')}`;
  mkdirSync(dir);
  writeFileSync(join(dir, 'idVendor'), hex(spec.vendorId));
  writeFileSync(join(dir, 'idProduct'), hex(spec.productId));
  writeFileSync(join(dir, 'bcdUSB'), '0x0200');
  mkdirSync(join(dir, 'strings/0x409'));
  writeFileSync(join(dir, 'strings/0x409/serialnumber'), spec.serialNumber);
  writeFileSync(join(dir, 'strings/0x409/manufacturer'), spec.manufacturer);
  writeFileSync(join(dir, 'strings/0x409/product'), spec.product);
  mkdirSync(join(dir, 'configs/c.1/strings/0x409'), { recursive: true });
  writeFileSync(join(dir, 'configs/c.1/strings/0x409/configuration'), 'printer');
}

/** One printer gadget tree in configfs; `create` builds it and binds it to a free UDC. */
export class ConfigfsPrinterGadget {
  /** The gadget side's character device (/dev/g_printerN), known after the first bind. */
  devicePath = '';
  private udc = '';

  private constructor(readonly spec: GadgetSpec) {}

  private get dir(): string {
    return join(GADGETS, this.spec.name);
  }

  /** Builds the configfs tree and binds it (the host sees a printer plugged in). */
  static create(spec: GadgetSpec): ConfigfsPrinterGadget {
    const gadget = new ConfigfsPrinterGadget(spec);
    const dir = gadget.dir;
    writeGadgetDevice(dir, spec);
    const fn = join(dir, `functions/printer.${spec.name}`);
    mkdirSync(fn);
    writeFileSync(join(fn, 'pnp_string'), spec.pnpString);
    symlinkSync(fn, join(dir, `configs/c.1/printer.${spec.name}`));
    const before = new Set(existsSync(PRINTER_CLASS) ? readdirSync(PRINTER_CLASS) : []);
    gadget.bind();
    const added = readdirSync(PRINTER_CLASS).filter((n) => !before.has(n));
    if (added.length !== 1) throw new Error(`expected one new g_printer device, saw ${added.join(', ') || 'none'}`);
    gadget.devicePath = `/dev/${added[0]}`;
    return gadget;
  }

  /** Binds to a UDC no other gadget holds: the host sees the printer attach. */
  bind(): void {
    const taken = new Set(readdirSync(GADGETS).map((g) => readFileSync(join(GADGETS, g, 'UDC'), 'utf8').trim()));
    const free = readdirSync('/sys/class/udc').find((u) => !taken.has(u));
    if (!free) throw new Error('no free UDC (load dummy_hcd with num=<gadgets>)');
    writeFileSync(join(this.dir, 'UDC'), free);
    this.udc = free;
  }

  /** Unbinds from its UDC: the host sees the printer vanish, as if unplugged. */
  unbind(): void {
    writeFileSync(join(this.dir, 'UDC'), '\n');
    this.udc = '';
  }

  /** Whether it is bound to a UDC now. */
  get bound(): boolean {
    return this.udc !== '';
  }

  /** Unbinds (when bound) and removes the configfs tree. */
  remove(): void {
    if (!existsSync(this.dir)) return;
    if (readFileSync(join(this.dir, 'UDC'), 'utf8').trim()) this.unbind();
    unlinkSync(join(this.dir, `configs/c.1/printer.${this.spec.name}`));
    rmdirSync(join(this.dir, 'configs/c.1/strings/0x409'));
    rmdirSync(join(this.dir, 'configs/c.1'));
    rmdirSync(join(this.dir, `functions/printer.${this.spec.name}`));
    rmdirSync(join(this.dir, 'strings/0x409'));
    rmdirSync(this.dir);
  }
}
