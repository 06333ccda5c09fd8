// Boots a board's disk image on its reference qemu machine (software emulation, one TCG thread): qemu's user network
// with restrict=on, so nothing the guest sends leaves this machine, reaching the host only through the forwards given.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { bootFirmware } from './boards.mjs';
import { hasCommand } from './host-tools.mjs';

const RELAY = fileURLToPath(new URL('./guest-relay.mjs', import.meta.url));

/**
 * Starts qemu for board `b` on `disk`. `hostfwd`: [[hostPort, guestPort]] from 127.0.0.1 into the guest; `guestfwd`:
 * [[guestAddress, guestPort, hostPort]] from the guest to 127.0.0.1. Returns the child (its stdout is the serial
 * console); `serial`: 'pipe' (the default) or 'inherit'; `stdin`: 'ignore' (the default: nothing may reach the serial
 * line before the kernel runs, or the boot loader's countdown stops), 'pipe' or 'inherit'.
 */
export function startGuest(b, disk, { hostfwd = [], guestfwd = [], serial = 'pipe', stdin = 'ignore' } = {}) {
  const missing = guestMissing(b);
  if (missing) throw new Error(missing);
  const forwards = [
    ...hostfwd.map(([host, guest]) => `hostfwd=tcp:127.0.0.1:${host}-:${guest}`),
    // a process per connection (guest-relay.mjs), so that each guest connection is a connection on the host too
    ...guestfwd.map(([address, port, host]) => `guestfwd=tcp:${address}:${port}-cmd:${process.execPath} ${RELAY} ${host}`),
  ];
  const [program, ...args] = b.qemu(disk, bootFirmware(b));
  args.push('-nic', ['user', 'model=virtio-net-pci', 'restrict=on', ...forwards].join(','));
  args.push('-display', 'none', '-monitor', 'none', '-serial', 'stdio', '-no-user-config', '-nodefaults');
  // -nodefaults drops the default devices; the virtio disk and NIC above are given explicitly
  return spawn(program, args, { stdio: [stdin, serial, serial === 'pipe' ? 'pipe' : 'inherit'] });
}

/** Why board `b`'s guest cannot boot here (qemu or its boot firmware missing, with the package), or null. */
export function guestMissing(b) {
  const program = b.qemu('disk.img', 'firmware')[0];
  if (!hasCommand(program)) return `${program} is missing: apt-get install ${b.qemuPackage}`;
  if (!bootFirmware(b)) return `${b.firmware[0]} is missing: apt-get install ${b.firmwarePackage}`;
  return null;
}
