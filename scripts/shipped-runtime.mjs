// The runtime the x64 executable ships (its Node 24 from firmware/targets.mjs, hence uWS 20.57),
// set up for running the host suite on: that very Node binary inside a Debian 13 root (its uWS needs glibc 2.38) that
// also holds the programs the tests start, made by firmware/debian-root.sh from trixie's packages and cached in .cache/.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { debianRootsDir, root, target, targetNode } from '../firmware/targets.mjs';

/** The arch whose executable's runtime the host suite runs on (the CI machine's). */
export const SHIPPED_TEST_ARCH = 'x64';

/**
 * What the tests start besides Node, from trixie: cupsd, lpadmin, lp, cupsfilter and gstoraster (sharing, IPP),
 * ippeveprinter, ipptool and ippfind, dbus-daemon and avahi-daemon (mDNS), mosquitto and openssl (fleet), chromium and a
 * font (console), ip and mount (network and mount namespaces), zstd and xz (compressed uploads), udev (systemd-udevd and
 * udevadm for the USB kernel guest, which runs its tests in this root too).
 */
export const TEST_ROOT_PACKAGES = [
  'cups', 'cups-client', 'cups-filters', 'cups-ipp-utils', 'dbus', 'avahi-daemon', 'avahi-utils', 'mosquitto', 'openssl',
  'chromium', 'fonts-dejavu-core', 'iproute2', 'mount', 'procps', 'zstd', 'xz-utils', 'kmod', 'udev',
];

/** The test root's folder: named by a hash of its package list, so a changed list makes a new root. */
export function testRootDir() {
  const hash = createHash('sha256').update(TEST_ROOT_PACKAGES.join(',')).digest('hex').slice(0, 8);
  return join(debianRootsDir, `trixie-${SHIPPED_TEST_ARCH}-tests-${hash}`);
}

/** Makes the test root when missing (a few minutes, once) and returns its folder. */
export function testRoot() {
  const dir = testRootDir();
  execFileSync('bash', [join(root, 'firmware', 'debian-root.sh'), target(SHIPPED_TEST_ARCH).machine, dir, TEST_ROOT_PACKAGES.join(',')], { stdio: ['ignore', 'ignore', 'inherit'] });
  return dir;
}

/** Why the shipped runtime cannot run here, or null when it can (needs root for chroot, and an x64 machine). */
export function shippedRuntimeMissing() {
  if (process.arch !== SHIPPED_TEST_ARCH) return `the shipped runtime's suite runs on an ${SHIPPED_TEST_ARCH} machine (this one is ${process.arch})`;
  if (process.getuid?.() !== 0) return 'the shipped runtime runs in a Debian 13 root entered with chroot, which needs root';
  return null;
}

/** The command prefix that runs the shipped Node (in the test root, the repository bound in at the same path). */
export function shippedNodeCommand() {
  return [join(root, 'firmware', 'in-debian-root.sh'), testRoot(), targetNode(SHIPPED_TEST_ARCH)];
}

/** What the shipped runtime is, for the log: its Node version and where it runs. */
export function shippedRuntimeName() {
  const t = target(SHIPPED_TEST_ARCH);
  return `Node ${t.version} (the ${SHIPPED_TEST_ARCH} executable's, ABI ${t.abi}: uWS 20.57) in ${testRootDir()}`;
}
