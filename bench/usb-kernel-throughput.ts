// 1 MB raw job through the real kernel USB stack, in the usb-kernel guest: `dd` of the bytes to /dev/usb/lp0
// (the kernel's usblp) against the daemon (libusb over usbfs), both into the same gadget printer, as a ratio.
// Run: USB_KERNEL_EXEC='node --import tsx bench/usb-kernel-throughput.ts' npm run test:usb-kernel
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { libusbBackend } from '../src/usb/libusb-backend';
import { startInProcess } from '../test/helpers/in-process-daemon';
import { tempDir } from '../test/helpers/temp-dir';
import { until, valueWithin } from '../test/helpers/until';
import { GadgetPrinter, zebraSpec } from '../test/usb-kernel/gadget-client';

const SIZE = 1024 * 1024;
const ROUNDS = 3;

async function timeDelivery(gadget: GadgetPrinter, send: () => Promise<void> | void): Promise<number> {
  await gadget.clear();
  const started = process.hrtime.bigint();
  await send();
  await until('the gadget has every byte', async () => (await gadget.received()).length >= SIZE, 120_000);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function main(): Promise<void> {
  const data = Buffer.alloc(SIZE);
  for (let i = 0; i < SIZE; i++) data[i] = 0x20 + (i % 90);
  const file = join(tempDir('usb-bench'), 'job.bin');
  writeFileSync(file, data);
  const gadget = await GadgetPrinter.start(zebraSpec({ serialNumber: 'BENCH1' }));
  await until('/dev/usb/lp0 appears', () => existsSync('/dev/usb/lp0'), 30_000);
  const dd: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    dd.push(await timeDelivery(gadget, () => void spawnSync('dd', [`if=${file}`, 'of=/dev/usb/lp0', 'bs=64k'], { stdio: 'ignore' })));
  }
  const d = await startInProcess({ usb: libusbBackend });
  await valueWithin('the daemon lists the gadget', 30_000, async () => (await d.api('GET', '/printers/usb_sn_BENCH1')).status === 200);
  const daemon: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    daemon.push(
      await timeDelivery(gadget, async () => {
        const res = await d.api('POST', '/print/usb_sn_BENCH1', { raw: data });
        if (res.status !== 200) throw new Error(`print failed: ${res.status} ${JSON.stringify(res.body)}`);
      }),
    );
  }
  await d.stop();
  await gadget.stop();
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const mbps = (ms: number) => (SIZE / 1e6 / (ms / 1000)).toFixed(2);
  console.log(`dd to /dev/usb/lp0: median ${median(dd).toFixed(0)} ms (${mbps(median(dd))} MB/s) of ${dd.map((x) => x.toFixed(0)).join(', ')}`);
  console.log(`daemon (HTTP → libusb): median ${median(daemon).toFixed(0)} ms (${mbps(median(daemon))} MB/s) of ${daemon.map((x) => x.toFixed(0)).join(', ')}`);
  console.log(`daemon / dd throughput: ${(median(dd) / median(daemon)).toFixed(2)}`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
