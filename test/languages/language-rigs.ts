// Test side of the language table: for each language and transport, a printer (emulator, fake USB device or real
// ippeveprinter) added to a daemon, and the labels read back from the bytes it got. A new language adds its line here.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import type { MonoBitmap } from '../../src/encoders/mono-bitmap';
import { DymoPrinterEmulator } from '../fixtures/dymo-printer';
import { Epl2PrinterEmulator } from '../fixtures/epl2-printer';
import { decodeEscposRaster } from '../fixtures/escpos-raster-decode';
import { deviceIdReply, type FakeUsbBus, type FakeDeviceSpec } from '../fixtures/fake-usb';
import { IppEverywherePrinter } from '../fixtures/ipp-everywhere';
import { TsplPrinterEmulator } from '../fixtures/tspl-printer';
import { ZplPrinterEmulator } from '../fixtures/zebra-tcp-printer';
import { decodeLabels } from '../render/zpl-label-decode';
import { renderPdfPages } from '../render/pdfium-fixture';

/** What a rig needs of the test: the fake USB bus the daemon watches, its API, and a place for teardown. */
export interface RigContext {
  bus: FakeUsbBus;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  onStop(stop: () => Promise<void>): void;
}

/** A printer added to the daemon: its path, and the labels it printed so far (last job's). */
export interface PrinterRig {
  path: string;
  labels(): Promise<MonoBitmap[]>;
}

/** Makes one printer of a language on a transport. */
export type RigMaker = (context: RigContext) => Promise<PrinterRig>;

let serial = 0;

/** Adds a network printer of `content` (or the daemon's choice) and returns its path. */
async function addNetwork(context: RigContext, port: number, protocol: 'tcp' | 'ipp', content?: string): Promise<string> {
  const added = await context.api('POST', '/printers', { connection: { type: 'network', host: '127.0.0.1', port, protocol }, ...(content ? { content } : {}) });
  assert.equal(added.status, 201, JSON.stringify(added.body));
  return added.body.result.content.path;
}

/** Plugs a fake USB printer with the 1284 id `id` and returns its path once discovery listed it. */
async function addUsb(context: RigContext, id: string, spec: Partial<FakeDeviceSpec> = {}) {
  serial += 1;
  const serialNumber = `RIG${String(serial).padStart(4, '0')}`;
  const device = context.bus.add({ vendorId: 0x1234, productId: 0x1000 + serial, serialNumber, ports: [serial], deviceIdReply: deviceIdReply(id), ...spec });
  assert.equal((await context.api('GET', '/discover')).status, 200);
  const path = `usb_sn_${serialNumber}`;
  assert.equal((await context.api('GET', `/printers/${path}`)).status, 200, `${path} is listed`);
  return { path, device };
}

/** A TCP printer that keeps what each connection carried and answers nothing. */
async function silentTcpPrinter(context: RigContext): Promise<{ port: number; connections: Buffer[] }> {
  const connections: Buffer[] = [];
  const server = net.createServer((socket) => {
    const got: Buffer[] = [];
    socket.on('data', (chunk) => got.push(chunk));
    socket.on('close', () => connections.push(Buffer.concat(got)));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  context.onStop(() => new Promise((resolve) => server.close(() => resolve())));
  return { port: (server.address() as net.AddressInfo).port, connections };
}

/** The longest of `pieces` (the job, not a status query). */
const longest = (pieces: Buffer[]): Buffer => pieces.reduce((a, b) => (b.length > a.length ? b : a), Buffer.alloc(0));

/** ZPL labels in `bytes`, host queries left out. */
function zplLabels(bytes: Buffer): MonoBitmap[] {
  return decodeLabels(bytes.toString('latin1').replace(/~H(QES|S|I)\r?\n?/g, '')).map((label) => label.bitmap);
}

/** TSPL bytes replayed to a TSPL emulator on TCP: the pictures it printed. */
async function tsplLabels(context: RigContext, bytes: Buffer): Promise<MonoBitmap[]> {
  const emulator = new TsplPrinterEmulator();
  const port = await emulator.start();
  context.onStop(() => emulator.stop());
  const socket = net.connect(port, '127.0.0.1');
  socket.end(bytes);
  await emulator.waitForLabels(1, 10_000);
  return emulator.printed.map((label) => label.picture);
}

/** EPL2 bytes fed to an EPL2 emulator: the pictures it printed. */
function epl2Labels(bytes: Buffer): MonoBitmap[] {
  const emulator = new Epl2PrinterEmulator();
  emulator.feed(bytes);
  return emulator.printed.map((label) => label.picture);
}

/** Every PDF ippeveprinter kept (`-k`) under `dir`, newest last. */
function keptPdfs(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir, { recursive: true }) as string[]) if (name.endsWith('.pdf')) found.push(join(dir, name));
  return found.sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

/** Language name → transport → printer. */
export const LANGUAGE_RIGS: Record<string, Record<string, RigMaker>> = {
  zpl: {
    tcp: async (context) => {
      const zebra = new ZplPrinterEmulator();
      const port = await zebra.start();
      context.onStop(() => zebra.stop());
      return { path: await addNetwork(context, port, 'tcp', 'zpl'), labels: async () => zplLabels(zebra.jobs().at(-1)!) };
    },
    usb: async (context) => {
      const { path, device } = await addUsb(context, 'MFG:Zebra Technologies;CMD:ZPL;MDL:ZD421;CLS:PRINTER;');
      return { path, labels: async () => zplLabels(Buffer.concat(device.transfers)) };
    },
  },
  tspl: {
    tcp: async (context) => {
      const tsc = new TsplPrinterEmulator();
      const port = await tsc.start();
      context.onStop(() => tsc.stop());
      return { path: await addNetwork(context, port, 'tcp', 'tspl'), labels: async () => tsc.printed.map((label) => label.picture) };
    },
    usb: async (context) => {
      const { path, device } = await addUsb(context, 'MFG:TSC;MDL:TE200;CMD:TSPL2;CLS:PRINTER;');
      return { path, labels: () => tsplLabels(context, Buffer.concat(device.transfers)) };
    },
  },
  escpos: {
    tcp: async (context) => {
      const printer = await silentTcpPrinter(context);
      const path = await addNetwork(context, printer.port, 'tcp', 'raw');
      return { path, labels: async () => decodeEscposRaster(longest(printer.connections)).receipts };
    },
    usb: async (context) => {
      const { path, device } = await addUsb(context, 'MFG:EPSON;CMD:ESCPOS;MDL:TM-T88V;CLS:PRINTER;');
      return { path, labels: async () => decodeEscposRaster(device.lastJob()!).receipts };
    },
  },
  epl2: {
    tcp: async (context) => {
      const lp2844 = new Epl2PrinterEmulator();
      const port = await lp2844.listen();
      context.onStop(() => lp2844.stop());
      return { path: await addNetwork(context, port, 'tcp', 'epl2'), labels: async () => lp2844.printed.map((label) => label.picture) };
    },
    usb: async (context) => {
      const { path, device } = await addUsb(context, 'MANUFACTURER:Zebra;COMMAND SET:EPL;MODEL:LP 2844;CLASS:PRINTER;');
      return { path, labels: async () => epl2Labels(Buffer.concat(device.transfers)) };
    },
  },
  dymo: {
    usb: async (context) => {
      const labelWriter = new DymoPrinterEmulator({ model: '450', wide: true });
      const { path, device } = await addUsb(context, 'MFG:DYMO;CMD: ;MDL:LabelWriter 4XL;CLASS:PRINTER;', { vendorId: 0x0922, productId: 0x0025, hasInEndpoint: true });
      device.respond = (chunk) => labelWriter.feed(chunk);
      return { path, labels: async () => labelWriter.printed.map((label) => label.picture) };
    },
  },
  document: {
    tcp: async (context) => {
      const printer = await silentTcpPrinter(context);
      const path = await addNetwork(context, printer.port, 'tcp', 'pdf');
      return { path, labels: () => renderPdfPages(longest(printer.connections)) };
    },
    usb: async (context) => {
      const { path, device } = await addUsb(context, 'MFG:Acme;CMD:PDF,PCL;MDL:Office 2000;CLS:PRINTER;');
      return { path, labels: () => renderPdfPages(device.lastJob()!) };
    },
    ipp: async (context) => {
      const printer = new IppEverywherePrinter();
      await printer.start();
      context.onStop(() => printer.stop());
      const path = await addNetwork(context, printer.port, 'ipp');
      return { path, labels: async () => renderPdfPages(readFileSync(keptPdfs(printer.dir).at(-1)!)) };
    },
  },
};
