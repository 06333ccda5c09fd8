// Hotplug without udevd: lists /sys/bus/usb/devices every interval and reports devices that came and went. sysfs has
// no inotify events for devices coming and going (checked in the kernel guest), so this is a readdir on a timer.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SYSFS_USB_DEVICES } from './sysfs-usb';

/** A device as sysfs names it: bus, hub port chain, address. */
export interface SysfsDevice {
  busNumber: number;
  portNumbers: number[];
  deviceAddress: number;
}

/** Settings: how often to list (ms), the sysfs folder, and what to call for devices that came (`onAdd`) and went (`onRemove`). */
export interface SysfsUsbWatchOptions {
  intervalMs: number;
  root?: string;
  onAdd(device: SysfsDevice): void;
  onRemove(device: SysfsDevice): void;
}

/** Lists the USB devices in sysfs (interfaces and root hubs left out); a missing folder lists as none. */
export async function listSysfsDevices(root = SYSFS_USB_DEVICES): Promise<SysfsDevice[]> {
  const names = (await readdir(root).catch(() => [] as string[])).filter((n) => /^\d+-\d+(\.\d+)*$/.test(n));
  const devices = await Promise.all(
    names.map(async (name) => {
      const devnum = Number(await readFile(join(root, name, 'devnum'), 'latin1').catch(() => 'NaN'));
      const [bus, ports] = name.split('-');
      return { busNumber: Number(bus), portNumbers: ports!.split('.').map(Number), deviceAddress: devnum };
    }),
  );
  return devices.filter((d) => Number.isInteger(d.deviceAddress));
}

/** A running watch: `ready` resolves once the first listing (the baseline, reported as nothing) is taken. */
export interface SysfsUsbWatch {
  ready: Promise<void>;
  stop(): void;
}

/** Starts watching; devices present at the first listing are the baseline and are not reported. */
export function watchSysfsUsb(options: SysfsUsbWatchOptions): SysfsUsbWatch {
  let known: Map<string, SysfsDevice> | null = null;
  let stopped = false;
  const key = (d: SysfsDevice) => `${d.busNumber}-${d.portNumbers.join('.')}@${d.deviceAddress}`;
  const poll = async () => {
    const now = new Map((await listSysfsDevices(options.root)).map((d) => [key(d), d]));
    if (stopped) return;
    if (known) {
      for (const [k, d] of known) if (!now.has(k)) options.onRemove(d);
      for (const [k, d] of now) if (!known.has(k)) options.onAdd(d);
    }
    known = now;
  };
  let timer: NodeJS.Timeout | null = null;
  const loop = () => {
    timer = setTimeout(() => void poll().finally(() => !stopped && loop()), options.intervalMs);
    timer.unref();
  };
  const ready = poll().finally(loop);
  return {
    ready,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
