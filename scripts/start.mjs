// `npm start`: the daemon from source (src/main.ts through tsx) on a Node that uWS 20.57 has a build for, on glibc 2.38 or
// newer. Where this machine has both it runs here; otherwise (an older glibc, as on Debian 12, or Node 20) it runs on the
// x64/arm64 executable's Node 24 in the Debian 13 root (firmware/debian-root.sh, entered with firmware/in-debian-root.sh,
// which needs root). Arguments pass through; SIGINT and SIGTERM reach the daemon; its exit status is this one's.
// usage: node --import tsx scripts/start.mjs [DAEMON-ARG...]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { debianRoot, root, target, targetNode } from '../firmware/targets.mjs';
import { UWS_BUILDS } from '../src/native/uws-builds.ts';

/** The glibc uWS 20.57's addons are linked against. */
const UWS_GLIBC = [2, 38];

/** Why a Node of ABI `abi` on glibc `glibc` (undefined: not glibc) cannot run the daemon, or null when it can. */
export function whyNotHere({ abi, nodeVersion, glibc }) {
  if (!UWS_BUILDS[abi]) return `uWS 20.57 has no build for Node ${nodeVersion}`;
  if (!glibc) return null;
  const [major, minor] = glibc.split('.').map(Number);
  const old = major < UWS_GLIBC[0] || (major === UWS_GLIBC[0] && minor < UWS_GLIBC[1]);
  return old ? `glibc ${glibc} is older than the ${UWS_GLIBC.join('.')} uWS needs` : null;
}

/** The command that runs the daemon with `args`: here, or (saying why on stderr) in the Debian 13 root. */
function command(args) {
  const main = join(root, 'src', 'main.ts');
  const why = whyNotHere({ abi: process.versions.modules, nodeVersion: process.version, glibc: process.report.getReport().header.glibcVersionRuntime });
  if (!why) return [process.execPath, '--import', 'tsx', main, ...args];
  const arch = process.arch === 'arm64' ? 'arm64' : 'x64';
  if (process.getuid?.() !== 0) {
    console.error(`npm start: ${why}, and the Debian 13 root it would run in is entered with chroot, which needs root`);
    process.exit(1);
  }
  console.error(`npm start: ${why}: running on Node ${target(arch).version} in the Debian 13 root`);
  // the root is made when missing (a few minutes, once)
  return [join(root, 'firmware', 'in-debian-root.sh'), debianRoot(target(arch).machine), targetNode(arch), '--import', 'tsx', main, ...args];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [program, ...rest] = command(process.argv.slice(2));
  const child = spawn(program, rest, { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
}
