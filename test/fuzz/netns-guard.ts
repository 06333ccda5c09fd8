// Refuses to fuzz unless this process sits in a network namespace of its own whose only interface is loopback.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { resolve } from 'node:path';

/** The launcher every fuzz process goes through (network + mount + PID namespaces, `lo` up, /sys remounted). */
export const IN_NETNS = resolve(__dirname, '..', '..', 'scripts', 'in-netns.sh');

/** Throws, naming what it saw, unless /sys/class/net, /proc/net/dev and the OS all list `lo` alone and the namespace is not init's. */
export function assertLoopbackOnly(): string {
  const sysfs = readdirSync('/sys/class/net').sort();
  const procNet = readFileSync('/proc/net/dev', 'utf8').split('\n').slice(2).map((line) => line.split(':')[0].trim()).filter(Boolean).sort();
  const os = Object.keys(networkInterfaces()).sort();
  const own = readlinkSync('/proc/self/ns/net');
  const problems: string[] = [];
  if (sysfs.join() !== 'lo') problems.push(`/sys/class/net lists ${sysfs.join(', ')}`);
  if (procNet.join() !== 'lo') problems.push(`/proc/net/dev lists ${procNet.join(', ')}`);
  if (os.some((name) => name !== 'lo')) problems.push(`os.networkInterfaces() lists ${os.join(', ')}`);
  if (os.length === 0) problems.push('lo has no address (is it up?)');
  if (problems.length > 0) {
    throw new Error(`REFUSING TO FUZZ: not in a loopback-only network namespace (${own}): ${problems.join('; ')}. Run through ${IN_NETNS}.`);
  }
  return `network namespace ${own}: interfaces ${sysfs.join(', ')} only`;
}
