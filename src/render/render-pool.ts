// Pool of render workers: sized at construction, bounded queue, per-job timeout, crashed or hung workers replaced, drained on retirement.
import type { Worker } from 'node:worker_threads';
import { DeviceError, RenderQueueFullError } from '../errors';
import type { Logger } from '../log';
import type { RenderJob, RenderOutput } from './render-job';
import { checkCopies, resolveRaster } from './render-options';
import type { RenderRequest, RenderWorkerData, WorkerMessage } from './worker-protocol';
import { spawnWorker } from './worker-spawn';
import { movable } from './transfer-list';

/** Where a worker's code comes from: a file (the .ts under tsx, a .cjs) or a code string (bundle, single executable). */
export type WorkerSource = { kind: 'file'; path: string } | { kind: 'code'; code: string };

/** Pool settings: `size` workers, at most `maxQueue` jobs waiting beyond them, `jobTimeoutMs` per render (ms). */
export interface RenderPoolOptions {
  size: number;
  maxQueue: number;
  jobTimeoutMs: number;
  /** Bytes of pdfium.wasm, handed to each worker. */
  wasm: Uint8Array;
  worker: WorkerSource;
  logger: Logger;
}

interface Job {
  id: number;
  job: RenderJob;
  resolve(output: RenderOutput): void;
  reject(err: DeviceError): void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
  /** Why the pool is ending this worker, when it is. */
  ending: string | undefined;
  lastError: string | undefined;
}

function canceled(): DeviceError {
  return new DeviceError('CANCELED', 'Canceled');
}

function checkSetting(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min) throw new DeviceError('RENDER_FAILED', `render pool ${name} must be an integer of at least ${min}, got ${value}`);
}

/** Renders documents to printer languages on worker threads; one pdfium per worker, started once; one job per worker at a time. */
export class RenderPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;
  /** Set once `drain` was called: resolves when every accepted job settled and the workers ended. */
  private draining: Promise<void> | undefined;
  /** Promises of accepted renders not settled yet. */
  private readonly accepted = new Set<Promise<unknown>>();
  private readonly wasm: Uint8Array;

  constructor(private readonly options: RenderPoolOptions) {
    checkSetting('size', options.size, 1);
    checkSetting('maxQueue', options.maxQueue, 0);
    checkSetting('jobTimeoutMs', options.jobTimeoutMs, 1);
    this.wasm = options.wasm;
    this.fill();
  }

  /**
   * Renders `job` (its bytes copied, then moved to a worker); options are checked here first. Rejects with
   * RenderQueueFullError, or DeviceError RENDER_FAILED / UNSUPPORTED_CONTENT from the checks or the worker. Once
   * `signal` aborts it rejects with CANCELED: a waiting render is dropped, a running one's worker is ended (and replaced).
   */
  render(job: RenderJob, signal?: AbortSignal): Promise<RenderOutput> {
    if (this.closed || this.draining) return Promise.reject(new DeviceError('RENDER_FAILED', 'render pool is closed'));
    if (signal?.aborted) return Promise.reject(canceled());
    try {
      resolveRaster(job.raster);
      checkCopies(job.encode);
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.queue.length + this.running() >= this.options.size + this.options.maxQueue) return Promise.reject(new RenderQueueFullError(this.queue.length + this.running()));
    this.fill();
    const result = new Promise<RenderOutput>((resolve, reject) => {
      const entry: Job = { id: this.nextId++, job: { ...job, bytes: new Uint8Array(job.bytes) }, resolve, reject };
      this.queue.push(entry);
      if (signal) this.cancelOnAbort(entry, signal);
      this.dispatch();
    });
    this.track(result);
    return result;
  }

  /** Rejects `entry` with CANCELED when `signal` aborts before it settles: out of the queue, or its worker ended. */
  private cancelOnAbort(entry: Job, signal: AbortSignal): void {
    const onAbort = () => {
      const waiting = this.queue.indexOf(entry);
      if (waiting >= 0) this.queue.splice(waiting, 1);
      const slot = [...this.slots].find((s) => s.job === entry);
      if (slot) {
        clearTimeout(slot.timer);
        slot.job = undefined;
        void this.end(slot, 'render canceled');
      }
      entry.reject(canceled());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const { resolve, reject } = entry;
    entry.resolve = (output) => {
      signal.removeEventListener('abort', onAbort);
      resolve(output);
    };
    entry.reject = (err) => {
      signal.removeEventListener('abort', onAbort);
      reject(err);
    };
  }

  /**
   * Retires the pool without failing anything: refuses new renders at once ("render pool is closed"), lets every
   * accepted job (waiting or running) finish as usual, then ends the workers. Resolves when they have ended; idempotent.
   */
  drain(): Promise<void> {
    this.draining ??= Promise.allSettled([...this.accepted]).then(() => this.close());
    return this.draining;
  }

  /** Jobs waiting and running, and workers alive (ready or starting). */
  stats(): { queued: number; running: number; workers: number } {
    return { queued: this.queue.length, running: this.running(), workers: this.slots.size };
  }

  /** Fails waiting and running jobs with "render pool is closed" and ends every worker. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new DeviceError('RENDER_FAILED', 'render pool is closed'));
    await Promise.all([...this.slots].map((slot) => this.end(slot, 'render pool is closed')));
  }

  private track(result: Promise<RenderOutput>): void {
    this.accepted.add(result);
    const settled = () => this.accepted.delete(result);
    result.then(settled, settled);
  }

  private running(): number {
    let n = 0;
    for (const slot of this.slots) if (slot.job) n += 1;
    return n;
  }

  /** Starts workers up to `size`. */
  private fill(): void {
    while (!this.closed && this.slots.size < this.options.size) this.spawn();
  }

  private spawn(): void {
    const workerData: RenderWorkerData = { wasm: this.wasm };
    const worker = spawnWorker(this.options.worker, workerData);
    const slot: Slot = { worker, ready: false, job: undefined, timer: undefined, ending: undefined, lastError: undefined };
    this.slots.add(slot);
    worker.on('message', (msg: WorkerMessage) => this.onMessage(slot, msg));
    worker.on('error', (err) => {
      slot.lastError = err instanceof Error ? err.message : String(err);
    });
    worker.on('exit', (code) => this.onExit(slot, code));
  }

  private onMessage(slot: Slot, msg: WorkerMessage): void {
    switch (msg.type) {
      case 'ready':
        slot.ready = true;
        this.dispatch();
        return;
      case 'init-failed':
        slot.lastError = msg.message;
        void this.end(slot, msg.message);
        return;
      case 'done':
      case 'failed':
        this.finish(slot, msg);
        return;
    }
  }

  private finish(slot: Slot, msg: Extract<WorkerMessage, { type: 'done' | 'failed' }>): void {
    const job = slot.job;
    if (!job || job.id !== msg.id) return;
    clearTimeout(slot.timer);
    slot.job = undefined;
    if (msg.type === 'done') job.resolve(msg.output);
    else job.reject(new DeviceError(msg.code, msg.message));
    if (msg.type === 'failed' && msg.fatal) void this.end(slot, `renderer state lost: ${msg.message}`);
    this.dispatch();
  }

  private onExit(slot: Slot, code: number): void {
    clearTimeout(slot.timer);
    this.slots.delete(slot);
    const reason = slot.ending ?? `worker crashed (exit code ${code}${slot.lastError ? `: ${slot.lastError}` : ''})`;
    if (slot.job) slot.job.reject(new DeviceError('RENDER_FAILED', reason));
    if (this.closed) return;
    if (!slot.ready) {
      this.options.logger.error('render worker failed to start', { reason });
      if (this.slots.size === 0) for (const job of this.queue.splice(0)) job.reject(new DeviceError('RENDER_FAILED', `renderer failed to start: ${reason}`));
      return;
    }
    this.options.logger.warn('render worker replaced', { reason });
    this.fill();
  }

  /** Sends waiting jobs to idle ready workers, arming each job's timeout. */
  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.ready || slot.job || slot.ending) continue;
      const job = this.queue.shift()!;
      slot.job = job;
      slot.timer = setTimeout(() => void this.end(slot, `render timed out after ${this.options.jobTimeoutMs} ms`), this.options.jobTimeoutMs);
      const { bytes, transfer } = movable(job.job.bytes);
      const req: RenderRequest = { type: 'render', id: job.id, job: { ...job.job, bytes } };
      slot.worker.postMessage(req, transfer);
    }
  }

  private async end(slot: Slot, reason: string): Promise<void> {
    slot.ending ??= reason;
    await slot.worker.terminate();
  }
}
