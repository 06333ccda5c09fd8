// Entry of a PDF render worker thread (a file under tsx, or bundled by firmware/bundle.mjs into a code string).
import { parentPort, workerData } from 'node:worker_threads';
import { runPdfWorker } from './worker-main';
import type { PdfWorkerData } from './worker-protocol';

if (parentPort) runPdfWorker(parentPort, workerData as PdfWorkerData);
