// The spooler's PDF → ZPL filter over the render pool, started on the first PDF (idle devices pay nothing).
import os from 'node:os';
import type { Logger } from '../log';
import { defaultWorkerSource, readPdfiumWasm } from '../render/render-assets';
import { RenderPool } from '../render/render-pool';
import type { PdfToZpl } from '../spooler/filter';

/** Pool sizing: workers (default: CPU count), jobs waiting beyond them, and the per-render time limit in ms. */
export interface PdfToZplOptions {
  workers?: number;
  maxQueue: number;
  jobTimeoutMs: number;
  logger: Logger;
}

/** A lazily started render pool behind the PdfToZpl filter signature; `close` ends its workers. */
export function createPdfToZpl(options: PdfToZplOptions): { render: PdfToZpl; close: () => Promise<void> } {
  let pool: RenderPool | null = null;
  const get = () =>
    (pool ??= new RenderPool({
      size: options.workers ?? Math.max(1, os.availableParallelism()),
      maxQueue: options.maxQueue,
      jobTimeoutMs: options.jobTimeoutMs,
      wasm: readPdfiumWasm(),
      worker: defaultWorkerSource(),
      logger: options.logger,
    }));
  return {
    render: async (pdf, printOptions) => (await get().render(pdf, { ...printOptions, dpi: 203 })).zpl,
    close: async () => {
      await pool?.close();
    },
  };
}
