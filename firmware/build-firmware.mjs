// npm run firmware -- --arch x64|arm64 [--arch ...]
// Writes dist/firmware/printproxyd-linux-<arch>: that arch's Node, stripped, with the esbuild bundle (worker code
// embedded) injected as a single-executable blob made by the target's own Node (under qemu where needed), and
// the natives, pdfium.wasm and their manifest appended after it: not SEA assets, which sit in a segment the kernel
// maps at exec, where read-ahead made them cost ~8 MiB of the idle daemon's RSS although it reads them only at its
// first start (natives) and first render (pdfium).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildBundle, nativeFiles, pdfiumWasmFile } from './bundle.mjs';
import { buildPrefix, root, strip, target, TARGETS, targetNode } from './targets.mjs';

const require = createRequire(import.meta.url);
const SENTINEL = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/**
 * Node options the executable starts with (SEA `execArgv`; they must be set before V8 starts, PRINTPROXY_V8_FLAGS comes
 * later): one V8 platform thread instead of 4 and a 1 MiB young generation semi-space instead of V8's up to 16 MiB.
 * Idle RSS 5 s after start 67.2 instead of 73.4-73.8 MiB (x64 in the Debian 13 root, bench/firmware.ts, 2026-11-26).
 */
export const EXEC_ARGV = ['--max-semi-space-size=1', '--v8-pool-size=1'];
const USAGE = `npm run firmware -- --arch ${Object.keys(TARGETS).join('|')} (several: --arch x64,arm64)`;

/** Builds the executable for `arch` from the bundle at `bundled`; returns its path. */
export async function buildFirmware(arch, bundled) {
  const t = target(arch);
  const work = join(root, 'dist', 'firmware', `.work-${arch}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const assets = embeddedFiles(arch, work);
  const blob = join(work, 'sea.blob');
  const config = { main: bundled, output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, execArgv: EXEC_ARGV };
  writeFileSync(join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
  const [runner, ...prefix] = [...buildPrefix(arch), targetNode(arch)];
  execFileSync(runner, [...prefix, '--experimental-sea-config', join(work, 'sea-config.json')], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] });

  const out = join(root, 'dist', 'firmware', `printproxyd-linux-${arch}`);
  // assembled beside and renamed over: a copy of the previous build may still be running
  const partial = join(work, 'printproxyd');
  copyFileSync(targetNode(arch), partial);
  strip(arch, partial);
  const { inject } = require('postject');
  await inject(partial, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SENTINEL });
  appendFileSync(partial, await appendedPayloadOf(assets));
  renameSync(partial, out);
  rmSync(work, { recursive: true, force: true });
  console.log(`built ${out} (${(statSync(out).size / 1e6).toFixed(1)} MB, Node ${t.version}, uWS for ABI ${t.abi}, glibc >= ${t.glibc}, assets appended)`);
  return out;
}

/** Copies the natives and the wasm into `work`, writes their manifest; returns asset name → file. */
function embeddedFiles(arch, work) {
  const files = {};
  const natives = {};
  const hash = createHash('sha256');
  const t = target(arch);
  for (const [from, name] of nativeFiles({ arch: t.machine, abi: t.abi, nodeVersion: `v${t.version}` })) {
    const bytes = readFileSync(from);
    hash.update(name).update(bytes);
    natives[name] = bytes.length;
    files[name] = from;
  }
  files['pdfium.wasm'] = pdfiumWasmFile();
  const manifest = join(work, 'manifest.json');
  writeFileSync(manifest, JSON.stringify({ hash: hash.digest('hex'), natives }));
  files['manifest.json'] = manifest;
  return files;
}

/** The payload format the executable reads back (src/native/embedded-assets.ts), built by that same module. */
async function appendedPayloadOf(assets) {
  const { appendedPayload } = await import('../src/native/embedded-assets.ts');
  return appendedPayload(Object.fromEntries(Object.entries(assets).map(([name, file]) => [name, readFileSync(file)])));
}

function parseArches(argv) {
  const arches = [];
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--arch') arches.push(...String(argv[++i] ?? '').split(','));
    else if (argv[i].startsWith('--arch=')) arches.push(...argv[i].slice(7).split(','));
    else throw new Error(`unknown argument ${argv[i]} (usage: ${USAGE})`);
  }
  if (arches.length === 0) throw new Error(`usage: ${USAGE}`);
  arches.forEach(target);
  return arches;
}

async function main() {
  const arches = parseArches(process.argv.slice(2));
  const bundled = await buildBundle(join(root, 'dist', 'firmware', 'bundle'));
  for (const arch of arches) await buildFirmware(arch, bundled);
}

if (process.argv[1] === new URL(import.meta.url).pathname) {
  main().catch((err) => {
    console.error(`firmware: ${err.message}`);
    process.exit(1);
  });
}
