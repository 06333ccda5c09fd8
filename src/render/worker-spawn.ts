// Starts a worker thread from a WorkerSource; a .ts file goes through tsx's require hook (Node 20 workers ignore `--import tsx`).
import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';
import type { WorkerSource } from './render-pool';

/** A new worker running `source` with `workerData`; `.ts` paths need the tsx package (development and tests). */
export function spawnWorker(source: WorkerSource, workerData: unknown): Worker {
  // node:worker_threads is loaded with the first worker, not at start-up: an idle daemon starts no worker
  const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
  if (source.kind === 'code') return new Worker(source.code, { eval: true, workerData });
  if (!source.path.endsWith('.ts')) return new Worker(source.path, { workerData });
  const code = `require(${JSON.stringify(createRequire(__filename).resolve('tsx/cjs'))});\nrequire(${JSON.stringify(source.path)});\n`;
  return new Worker(code, { eval: true, workerData });
}
