// The Node a bench starts the daemon (or bare uWS) on: this one where uWS 20.57 loads here, else the shipped runtime.
import { UWS_BUILDS } from '../src/native/uws-builds';
// @ts-expect-error: plain ESM script without type declarations
import { shippedNodeCommand } from '../scripts/shipped-runtime.mjs';

/** The glibc uWS 20.57's addons need. */
const UWS_GLIBC = [2, 38];

/**
 * A command prefix ending in a node binary: this process's Node when uWS has a build for it and glibc is new enough,
 * else the x64 executable's Node 24 in the Debian 13 test root (in-debian-root.sh execs all the way: the pid is Node's).
 */
export function daemonNode(): string[] {
  const glibc = (process.report.getReport() as { header: { glibcVersionRuntime?: string } }).header.glibcVersionRuntime;
  const [major, minor] = (glibc ?? '99.99').split('.').map(Number);
  const newEnough = major > UWS_GLIBC[0] || (major === UWS_GLIBC[0] && minor >= UWS_GLIBC[1]);
  return UWS_BUILDS[process.versions.modules] && newEnough ? [process.execPath] : (shippedNodeCommand() as string[]);
}
