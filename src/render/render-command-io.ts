// The render command's real I/O: files through node:fs, ZPL to stdout, messages to stderr, pdfium.wasm from its install path.
import { readFile, writeFile } from 'node:fs/promises';
import type { RenderCommandIo } from './render-command';
import { readPdfiumWasm } from './render-assets';

/** RenderCommandIo over the process: fs files, process.stdout / process.stderr, wasm from pdfiumWasmPath(). */
export function processRenderIo(): RenderCommandIo {
  return {
    readFile: async (path) => readFile(path),
    writeFile: async (path, data) => writeFile(path, data),
    stdout: (data) => void process.stdout.write(data),
    stderr: (text) => void process.stderr.write(text),
    loadWasm: async () => readPdfiumWasm(),
  };
}
