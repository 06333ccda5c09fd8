// Where the worker code and pdfium.wasm come from: the bundler's embedded worker string, else the sources and node_modules.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { embeddedAssets } from '../native/embedded-assets';
import type { WorkerSource } from './render-pool';

declare const PRINTPROXY_RENDER_WORKER_CODE: string | undefined;

/** The worker the daemon should run: the code string firmware/bundle.mjs embeds, else src/render/render-worker.ts (tsx). */
export function defaultWorkerSource(): WorkerSource {
  if (typeof PRINTPROXY_RENDER_WORKER_CODE === 'string') return { kind: 'code', code: PRINTPROXY_RENDER_WORKER_CODE };
  return { kind: 'file', path: join(__dirname, 'render-worker.ts') };
}

/** Path of pdfium.wasm: dist/native/pdfium.wasm beside a bundle, else the one in node_modules/@embedpdf/pdfium/dist. */
export function pdfiumWasmPath(): string {
  if (typeof PRINTPROXY_RENDER_WORKER_CODE === 'string') return join(__dirname, 'native', 'pdfium.wasm');
  return join(dirname(createRequire(__filename).resolve('@embedpdf/pdfium')), 'pdfium.wasm');
}

/** The bytes of pdfium.wasm: the single executable's own asset, else read from pdfiumWasmPath(). */
export function readPdfiumWasm(): Uint8Array {
  return embeddedAssets()?.get('pdfium.wasm') ?? readFileSync(pdfiumWasmPath());
}
