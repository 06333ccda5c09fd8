// Body of a render worker: one pdfium instance started once, then rasterise → encode per request, answers on the port.
import type { MessagePort } from 'node:worker_threads';
import { DeviceError, toDeviceError } from '../errors';
import { initPdfium } from './pdfium-init';
import { createRasterisers } from './rasteriser-table';
import { renderDocument } from './render-document';
import type { RenderOutput } from './render-job';
import type { RenderRequest, RenderWorkerData, WorkerMessage } from './worker-protocol';
import { movable } from './transfer-list';

/** Starts pdfium from `data.wasm`, reports ready (or init-failed), then serves render requests in order on `port`. */
export function runRenderWorker(port: MessagePort, data: RenderWorkerData): void {
  const post = (msg: WorkerMessage, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);
  const rasterisers = initPdfium(data.wasm).then(createRasterisers);
  rasterisers.then(
    () => post({ type: 'ready' }),
    (err: unknown) => post({ type: 'init-failed', message: toDeviceError(err, 'RENDER_FAILED').message }),
  );
  port.on('message', (req: RenderRequest) => {
    void rasterisers.then((r) => {
      try {
        const report = renderDocument(req.job, r);
        const { bytes, transfer } = movable(report.bytes);
        const output: RenderOutput = { bytes, pages: report.pages, documentPages: report.documentPages, widthDots: report.widthDots, heightDots: report.heightDots };
        post({ type: 'done', id: req.id, output }, transfer);
      } catch (err) {
        const e = toDeviceError(err, 'RENDER_FAILED');
        const fatal = !(err instanceof DeviceError);
        post({ type: 'failed', id: req.id, code: e.code, message: fatal ? `renderer failed: ${e.message}` : e.message, fatal });
      }
    });
  });
}
