// The daemon's render service over a render pool: started on the first render (idle devices pay nothing), and
// replaced by a pool of the new size after the worker-count setting changes, without failing a render in flight.
import { DeviceError } from '../errors';
import type { Logger } from '../log';
import { defaultWorkerSource, readPdfiumWasm } from './render-assets';
import type { RenderJob, RenderOutput } from './render-job';
import { RenderPool } from './render-pool';

/** Starts a render pool of `size` workers. */
export type StartRenderPool = (size: number) => RenderPool;

/** Renders jobs on a lazily started pool, and the life cycle of that pool. */
export interface RenderService {
  /** Renders one job (see RenderPool.render); when `signal` aborts, the render is dropped or its worker ended (CANCELED). */
  render(job: RenderJob, signal: AbortSignal): Promise<RenderOutput>;
  /**
   * Retires the pool when `workers()` no longer matches its size: it refuses new renders, finishes the ones it
   * accepted, then ends its workers; the next render starts a pool of the new size. No-op when the size is unchanged.
   */
  resize(): void;
  /** Ends every pool at once, the current one and any still finishing (their unfinished renders fail); later renders fail. */
  close(): Promise<void>;
}

/** Pool settings besides the size: jobs waiting beyond the workers, per-render time limit in ms, logger. */
export interface RenderPoolSettings {
  maxQueue: number;
  jobTimeoutMs: number;
  logger: Logger;
}

/** Starts pools of the daemon's own render worker (embedded code in the bundle, the .ts source otherwise). */
export function renderPoolStarter(settings: RenderPoolSettings): StartRenderPool {
  return (size) => new RenderPool({ size, ...settings, wasm: readPdfiumWasm(), worker: defaultWorkerSource() });
}

/**
 * A lazily started, resizable render pool: `workers()` is the wanted size (read at each render and each `resize`),
 * `startPool` starts one. While a retired pool finishes the renders it accepted, the next render may already start the
 * new pool: both pools' workers (and pdfium heaps) are alive for that moment, so memory briefly holds old + new workers.
 */
export function createRenderService(options: { workers: () => number; startPool: StartRenderPool }): RenderService {
  let current: { size: number; pool: RenderPool } | null = null;
  let closed = false;
  const retiring = new Set<RenderPool>();
  const retire = () => {
    if (!current) return;
    const { pool } = current;
    current = null;
    retiring.add(pool);
    const gone = () => retiring.delete(pool);
    void pool.drain().then(gone, gone);
  };
  const resize = () => {
    if (current && current.size !== options.workers()) retire();
  };
  const pool = () => {
    if (closed) throw new DeviceError('RENDER_FAILED', 'render pool is closed');
    resize();
    if (current) return current.pool;
    const size = options.workers();
    current = { size, pool: options.startPool(size) };
    return current.pool;
  };
  return {
    render: async (job, signal) => pool().render(job, signal),
    resize,
    close: async () => {
      closed = true;
      retire();
      await Promise.all([...retiring].map((p) => p.close()));
    },
  };
}
