// Builds dist/printproxyd.cjs: one esbuild bundle of the daemon with the web console embedded (also written to
// dist/console), natives and wasm copied beside it in dist/native/ (for the Node running this script). Run with tsx
// (`npm run build`): the uWS build table is TypeScript.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { execSync } from 'node:child_process';
import { buildConsoleChecked, writeConsole } from './console-build.mjs';
import { currentRuntime, UWS_BUILDS, uwsBuildFor } from '../src/native/uws-builds.ts';
import { target, usbAddonFile } from './targets.mjs';

const require = createRequire(import.meta.url);
const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const out = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** The build identity baked into the bundle: package.json's version, or PRINTPROXY_VERSION's (a release's, `npm run image -- --version`). */
function buildIdentity() {
  const version = process.env.PRINTPROXY_VERSION || pkg.version;
  let commit = 'nogit';
  try {
    commit = execSync('git rev-parse --short HEAD', { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch {
    // not a git checkout
  }
  return { version, buildVersion: `${version}+${commit}`, builtAt: new Date().toISOString().slice(0, 10) };
}

/** Replaces node-gyp-build (used by `usb`) with a loader of our own native dir. */
const nativeShim = {
  name: 'native-shim',
  setup(b) {
    b.onResolve({ filter: /^node-gyp-build$/ }, () => ({ path: join(root, 'src', 'native', 'node-gyp-build-shim.ts') }));
  },
};

/**
 * Bundles `entry` for Node 22 and newer as CommonJS, minified and ASCII-only; `extra` merges into the esbuild options.
 * Minified: V8 keeps the whole script source in the heap and scans it again at each lazy compile, so every byte of
 * whitespace and comment costs memory and start-up time. ASCII: one non-ASCII character anywhere (a comment in a
 * dependency was enough) makes V8 hold the source as a two-byte string, twice its size (7.3 MB instead of 3.6).
 */
export async function bundle(entry, outfile, extra = {}) {
  return build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'cjs',
    minify: true,
    charset: 'ascii',
    legalComments: 'none',
    logLevel: 'warning',
    alias: { '@embedpdf/pdfium': require.resolve('@embedpdf/pdfium').replace(/index\.js$/, 'index.cjs') },
    plugins: [nativeShim],
    ...extra,
  });
}

/** Natives for a runtime (process.arch-style `arch`, Node `abi` and version): [source file, name in the native dir]. */
export function nativeFiles({ arch, abi, nodeVersion }) {
  const { build, fileName } = uwsBuildFor({ nodeVersion, abi, platform: 'linux', arch });
  const uwsDir = join(dirname(require.resolve(build.pkg)), build.folderFromMain);
  const usbDir = join(dirname(require.resolve('usb/package.json')), 'prebuilds');
  return [
    [join(uwsDir, fileName), fileName],
    [join(usbDir, usbAddonFile(arch)), 'usb.node'],
  ];
}

/** Writes `outDir`/printproxyd.cjs (the worker code and the console embedded in it, the console also in `outDir`/console); returns its path. */
export async function buildBundle(outDir) {
  mkdirSync(outDir, { recursive: true });
  const worker = await bundle(join(root, 'src', 'render', 'render-worker.ts'), join(outDir, 'render-worker.cjs'), { write: false, minify: true });
  const consoleFiles = await buildConsoleChecked();
  writeConsole(consoleFiles, join(outDir, 'console'));
  const embeddedConsole = Object.fromEntries(Object.entries(consoleFiles).map(([name, bytes]) => [name, bytes.toString('base64')]));
  const define = {
    PRINTPROXY_BUILD: JSON.stringify(buildIdentity()),
    PRINTPROXY_RENDER_WORKER_CODE: JSON.stringify(worker.outputFiles[0].text),
    PRINTPROXY_CONSOLE_FILES: JSON.stringify(JSON.stringify(embeddedConsole)),
  };
  await bundle(join(root, 'src', 'main.ts'), join(outDir, 'printproxyd.cjs'), { define });
  assertAscii(join(outDir, 'printproxyd.cjs'));
  return join(outDir, 'printproxyd.cjs');
}

/** Throws when `file` holds a byte above 0x7f: V8 would keep that script as a two-byte string, twice its size in the heap. */
export function assertAscii(file) {
  const bytes = readFileSync(file);
  const at = bytes.findIndex((b) => b > 0x7f);
  if (at >= 0) throw new Error(`${file} has a non-ASCII byte at ${at} (${JSON.stringify(bytes.subarray(Math.max(0, at - 40), at + 10).toString('utf8'))}): V8 would hold the whole script as a two-byte string`);
}

/** Path of pdfium.wasm in node_modules. */
export function pdfiumWasmFile() {
  return join(dirname(require.resolve('@embedpdf/pdfium')), 'pdfium.wasm');
}

/** The runtime dist/ is for: this Node when uWS has a build for it, else the executable's Node (which `npm start` re-execs into). */
function nativeRuntime() {
  const here = currentRuntime();
  if (UWS_BUILDS[here.abi]) return here;
  const t = target(here.arch === 'arm64' ? 'arm64' : 'x64');
  return { ...here, abi: t.abi, nodeVersion: `v${t.version}` };
}

async function main() {
  const bundled = await buildBundle(out);
  mkdirSync(join(out, 'native'), { recursive: true });
  for (const [from, name] of nativeFiles(nativeRuntime())) copyFileSync(from, join(out, 'native', name));
  copyFileSync(pdfiumWasmFile(), join(out, 'native', 'pdfium.wasm'));
  console.log(`built ${bundled} (${pkg.version}) with natives in dist/native`);
}

if (process.argv[1] === new URL(import.meta.url).pathname) await main();
