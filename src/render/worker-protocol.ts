// Messages between the render pool and a PDF worker; any worker speaking them can serve the pool.
import type { DeviceErrorCode } from '../errors';
import type { RenderResult } from './pdf-renderer';
import type { ResolvedRenderOptions } from './render-options';

/** `workerData` of a PDF worker: the pdfium.wasm bytes it starts pdfium from. */
export interface PdfWorkerData {
  wasm: Uint8Array;
}

/** Pool → worker: render one PDF (its buffer is transferred). */
export interface RenderRequest {
  type: 'render';
  id: number;
  pdf: Uint8Array;
  opts: ResolvedRenderOptions;
}

/** Worker → pool: started (`ready`) or not (`init-failed`), and each job's outcome (`done` transfers the ZPL buffer). */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'init-failed'; message: string }
  | { type: 'done'; id: number; result: RenderResult }
  | { type: 'failed'; id: number; code: DeviceErrorCode; message: string; /** pdfium itself failed (wasm trap): replace the worker. */ fatal: boolean };
