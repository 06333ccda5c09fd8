// Entry of a render worker thread (a file under tsx, or bundled by firmware/bundle.mjs into a code string).
import { parentPort, workerData } from 'node:worker_threads';
import { runRenderWorker } from './worker-main';
import type { RenderWorkerData } from './worker-protocol';

if (parentPort) runRenderWorker(parentPort, workerData as RenderWorkerData);
