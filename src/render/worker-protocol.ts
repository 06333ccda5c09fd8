// Messages between the render pool and a render worker; any worker speaking them can serve the pool.
import type { DeviceErrorCode } from '../errors';
import type { RenderJob, RenderOutput } from './render-job';

/** `workerData` of a render worker: the pdfium.wasm bytes it starts pdfium from. */
export interface RenderWorkerData {
  wasm: Uint8Array;
}

/** Pool → worker: rasterise and encode one job (its `bytes` buffer is moved when it holds just them: transfer-list.ts). */
export interface RenderRequest {
  type: 'render';
  id: number;
  job: RenderJob;
}

/** Worker → pool: started (`ready`) or not (`init-failed`), and each job's outcome (`done` transfers the output buffer). */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'init-failed'; message: string }
  | { type: 'done'; id: number; output: RenderOutput }
  | { type: 'failed'; id: number; code: DeviceErrorCode; message: string; /** pdfium itself failed (wasm trap): replace the worker. */ fatal: boolean };
