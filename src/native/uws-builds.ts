// Which uWebSockets.js build serves which Node ABI: uWS 20.57's npm package, which holds a `.node` file per ABI and arch.
import { UnsupportedRuntimeError } from '../errors';

/** A uWS build for one Node ABI: its npm package, the folder of the `.node` files (relative to the package's main
 * script), the Node major it is for, and the Linux arches it ships. */
export interface UwsBuild {
  pkg: string;
  folderFromMain: string;
  nodeMajor: number;
  arches: readonly string[];
}

const UWS_20_57 = { pkg: '@btc-vision/uwebsockets.js', folderFromMain: '.', arches: ['x64', 'arm64'] } as const;

/** The uWS builds by Node ABI (`process.versions.modules`): 127 is Node 22, 137 Node 24, 141 Node 25; all need glibc >= 2.38. */
export const UWS_BUILDS: Readonly<Record<string, UwsBuild>> = {
  '127': { ...UWS_20_57, nodeMajor: 22 },
  '137': { ...UWS_20_57, nodeMajor: 24 },
  '141': { ...UWS_20_57, nodeMajor: 25 },
};

/** The running runtime as far as the uWS choice goes (values of process.version, .versions.modules, .platform, .arch). */
export interface Runtime {
  nodeVersion: string;
  abi: string;
  platform: string;
  arch: string;
}

/** The build and addon file name (`uws_<platform>_<arch>_<abi>.node`) for `runtime`; throws UnsupportedRuntimeError. */
export function uwsBuildFor(runtime: Runtime): { build: UwsBuild; fileName: string } {
  const build = UWS_BUILDS[runtime.abi];
  if (!build) {
    const supported = Object.entries(UWS_BUILDS).map(([abi, b]) => `Node ${b.nodeMajor} (ABI ${abi})`).join(', ');
    throw new UnsupportedRuntimeError(`no uWebSockets.js build for Node ${runtime.nodeVersion} (ABI ${runtime.abi}): printproxyd runs on ${supported}`);
  }
  if (!build.arches.includes(runtime.arch)) {
    throw new UnsupportedRuntimeError(`no uWebSockets.js build for Node ${runtime.nodeVersion} (ABI ${runtime.abi}) on ${runtime.arch}: ${build.pkg} has ${build.arches.join(', ')}`);
  }
  return { build, fileName: `uws_${runtime.platform}_${runtime.arch}_${runtime.abi}.node` };
}

/** The runtime this process runs on. */
export function currentRuntime(): Runtime {
  return { nodeVersion: process.version, abi: process.versions.modules, platform: process.platform, arch: process.arch };
}
