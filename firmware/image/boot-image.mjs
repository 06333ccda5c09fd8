// npm run image:boot -- --board qemu-x86_64|qemu-aarch64 [--port N]
// Boots dist/image/<board>/disk.img (npm run image makes it) on the board's reference qemu machine: the API on
// http://127.0.0.1:N/ (default 8080; the guest's port 80), HTTPS on N+1 (the guest's 443), the serial console here.
// The disk is used as it is: what the device writes (its /data, its boot state) stays in it. Ctrl-C stops qemu.
import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { board } from './boards.mjs';
import { installPackages } from './host-tools.mjs';
import { guestMissing, startGuest } from './qemu-guest.mjs';
import { repoRoot } from './paths.mjs';

const USAGE = 'npm run image:boot -- --board qemu-x86_64|qemu-aarch64 [--port N]';

function parseArgs(argv) {
  const options = { port: 8080 };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = inline ?? argv[++i];
    if (flag === '--board') options.board = value;
    else if (flag === '--port') options.port = Number(value);
    else throw new Error(`unknown argument ${argv[i]}\nusage: ${USAGE}`);
  }
  if (!options.board || !Number.isInteger(options.port)) throw new Error(`usage: ${USAGE}`);
  return options;
}

try {
  const options = parseArgs(process.argv.slice(2));
  const b = board(options.board);
  const disk = join(repoRoot, 'dist', 'image', b.name, 'disk.img');
  if (!existsSync(disk)) throw new Error(`no ${relative(repoRoot, disk)}: npm run image -- --board ${b.name}`);
  if (guestMissing(b)) installPackages([b.qemuPackage, b.firmwarePackage], `to boot the ${b.name} image`);
  console.log(`image:boot: ${b.name} from ${relative(repoRoot, disk)}; the API will answer on http://127.0.0.1:${options.port}/ ` +
    `(HTTPS ${options.port + 1}) about a minute from now (software emulation)`);
  const guest = startGuest(b, disk, { hostfwd: [[options.port, 80], [options.port + 1, 443]], serial: 'inherit', stdin: 'inherit' });
  process.on('SIGINT', () => guest.kill('SIGTERM'));
  guest.on('exit', (code) => process.exit(code ?? 0));
} catch (error) {
  console.error(`image:boot: ${error.message}`);
  process.exit(1);
}
